// Measures migrateCheckpoints on one long SqliteSaver thread (the built package):
//   node src/test-support/migrate-bench.mjs [--turns 300] [--reply-bytes 16000] [--runs-on 3] [--dir DIR]
// A real chat graph (one reply node) runs `turns` turns on a SqliteSaver file, each reply about
// `reply-bytes` characters; SqliteSaver stores the whole message list at every checkpoint, so the
// file grows with the square of the turns (300 turns of 16 kB: about 4.2 GiB). The thread is then
// migrated into a SessionCheckpointSaver on a SQLite store, timed, and compared (verifyMigration,
// timed separately). Then the graph runs on: `runs-on` more turns on SqliteSaver and on the migrated
// store, side by side, whose answers (every message's type and text) must be the same. Prints one
// JSON object: bytes before and after, seconds, MB/s, peak RSS, and whether the answers agreed.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { migrateCheckpoints, SessionCheckpointSaver, verifyMigration } from '../../dist/index.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at < 0 ? fallback : args[at + 1];
};
const turns = Number(option('turns', '300'));
const replyBytes = Number(option('reply-bytes', '16000'));
const dir = option('dir', undefined) ?? mkdtempSync(join(tmpdir(), 'sc-migrate-bench-'));
const keep = args.includes('--keep');
const runsOn = Number(option('runs-on', '3'));

/** Bytes of a SQLite database with its WAL and shared-memory files. */
const fileBytes = (path) => ['', '-wal', '-shm'].reduce((n, suffix) => n + (existsSync(path + suffix) ? statSync(path + suffix).size : 0), 0);

// Text that varies from turn to turn (no two replies alike), deterministic across runs.
const words = ['checkpoint', 'thread', 'value', 'graph', 'state', 'message', 'reply', 'tool', 'plan', 'note', 'user', 'agent'];
const reply = (turn) => {
  let s = `turn ${turn}:`;
  for (let i = 0; s.length < replyBytes; i++) s += ` ${words[(turn * 7 + i * 13) % words.length]}${(turn * 31 + i) % 97}`;
  return s.slice(0, replyBytes);
};

const sourcePath = join(dir, 'sqlite-saver.db');
const storePath = join(dir, 'store.sqlite');
/** The chat graph: one reply node whose answer depends on the whole state (its length). */
const chatGraph = (checkpointer) =>
  new StateGraph(MessagesAnnotation)
    .addNode('reply', (s) => ({ messages: [new AIMessage(reply(s.messages.length))] }))
    .addEdge(START, 'reply')
    .addEdge('reply', END)
    .compile({ checkpointer });

let started = performance.now();
if (!existsSync(sourcePath)) {
  const saver = SqliteSaver.fromConnString(sourcePath);
  const graph = chatGraph(saver);
  for (let turn = 0; turn < turns; turn++) {
    await graph.invoke({ messages: [new HumanMessage(`question ${turn}`)] }, { configurable: { thread_id: 'long-chat' } });
    if (turn % 25 === 24) process.stderr.write(`generated ${turn + 1} turns, ${(fileBytes(sourcePath) / 2 ** 20).toFixed(0)} MiB\n`);
  }
  saver.db.pragma('wal_checkpoint(TRUNCATE)');
  saver.db.close();
}
const generateSeconds = (performance.now() - started) / 1000;

rmSync(storePath, { force: true });
const source = SqliteSaver.fromConnString(sourcePath);
const store = await openSqliteStore(storePath);
const target = new SessionCheckpointSaver(store);
const sourceBytes = fileBytes(sourcePath);
started = performance.now();
const report = await migrateCheckpoints(source, target, {
  apply: true,
  verify: false,
  onProgress: (e) => {
    if (e.done % 100 === 0) process.stderr.write(`copied ${e.done} of ${e.total}\n`);
  },
});
const copySeconds = (performance.now() - started) / 1000;
const copyRss = process.resourceUsage().maxRSS * 1024;
started = performance.now();
const verification = await verifyMigration(source, target);
const verifySeconds = (performance.now() - started) / 1000;
// The graph runs on from the migrated state: the same turns on both sides, the same answers.
const onSource = chatGraph(source);
const onTarget = chatGraph(target);
const said = (state) => state.messages.map((m) => [m.getType(), m.content]);
let sameAnswers = true;
let messagesAfter = 0;
for (let turn = turns; turn < turns + runsOn; turn++) {
  const input = () => ({ messages: [new HumanMessage(`question ${turn}`)] });
  const config = { configurable: { thread_id: 'long-chat' } };
  const [a, b] = [await onSource.invoke(input(), config), await onTarget.invoke(input(), config)];
  sameAnswers &&= isDeepStrictEqual(said(a), said(b)) && a.messages.length === 2 * (turn + 1);
  messagesAfter = b.messages.length;
}
await store.close();
source.db.close();
const storeBytes = fileBytes(storePath);
const MB = 1e6;
console.log(
  JSON.stringify(
    {
      node: process.version,
      turns,
      replyBytes,
      checkpoints: report.checkpoints,
      writes: report.writes,
      generateSeconds: Number(generateSeconds.toFixed(1)),
      sourceBytes,
      storeBytes,
      ratio: Number((sourceBytes / storeBytes).toFixed(1)),
      copySeconds: Number(copySeconds.toFixed(1)),
      copyMBps: Number((sourceBytes / MB / copySeconds).toFixed(1)),
      copyPeakRssMiB: Math.round(copyRss / 2 ** 20),
      verifySeconds: Number(verifySeconds.toFixed(1)),
      verifyMBps: Number((sourceBytes / MB / verifySeconds).toFixed(1)),
      peakRssMiB: Math.round((process.resourceUsage().maxRSS * 1024) / 2 ** 20),
      differences: verification.differences.reduce((by, d) => ({ ...by, [d.what]: (by[d.what] ?? 0) + 1 }), {}),
      firstDifference: verification.differences[0] ?? null,
      runsOn,
      messagesAfter,
      sameAnswers,
    },
    null,
    2,
  ),
);
if (!keep) rmSync(dir, { recursive: true, force: true });
