import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { uuid6, type BaseCheckpointSaver, type Checkpoint, type PendingWrite } from '@langchain/langgraph-checkpoint';
import { SessionCheckpointSaver } from '@session-checkpoint/langgraph';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { n, type BenchContext, type Sample } from '../context.js';
import { opsPerSecond } from '../harness.js';
import { agentState } from '../payloads.js';

/*
 * SessionCheckpointSaver against LangGraph's SqliteSaver, side by side in one run on files in the
 * same directory, both at synchronous=NORMAL with WAL (SqliteSaver's defaults). Each saver gets
 * exactly the same calls: a chain of checkpoints where one of three channels changes per step.
 */

const THREAD = 'bench-thread';
type Saver = { name: string; saver: BaseCheckpointSaver; bytes: () => number; close: () => Promise<void> };

async function savers(dir: string): Promise<Saver[]> {
  const oursPath = join(dir, 'ours.sqlite');
  const store = await openSqliteStore(oursPath, { durability: 'normal' });
  const peerPath = join(dir, 'langgraph.sqlite');
  const db = new Database(peerPath);
  const peer = new SqliteSaver(db);
  // setup() runs lazily on first use and sets WAL; run it now so the pragma below sticks.
  (peer as unknown as { setup(): void }).setup();
  db.pragma('synchronous = NORMAL');
  return [
    { name: 'SessionCheckpointSaver', saver: new SessionCheckpointSaver(store), bytes: () => fileBytes(oursPath), close: () => store.close() },
    {
      name: 'SqliteSaver',
      saver: peer,
      bytes: () => fileBytes(peerPath),
      close: async () => {
        db.close();
      },
    },
  ];
}

/** Bytes of a closed SQLite database with any WAL and shared-memory files left. */
function fileBytes(path: string): number {
  return ['', '-wal', '-shm'].map((s) => path + s).filter(existsSync).reduce((sum, p) => sum + statSync(p).size, 0);
}

/** A chain of `count` checkpoints: "messages" changes every step, "profile" and "tools" never after the first. */
async function putChain(saver: BaseCheckpointSaver, thread: string, count: number, grow: boolean): Promise<string[]> {
  const ids: string[] = [];
  const profile = agentState(1024, 1);
  const tools = agentState(1024, 2);
  const messages: unknown[] = [];
  let config = { configurable: { thread_id: thread, checkpoint_ns: '' } } as { configurable: Record<string, unknown> };
  for (let i = 0; i < count; i++) {
    if (grow) messages.push({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}: `.padEnd(200, 'lorem ipsum ') });
    const value = grow ? [...messages] : agentState(1024, i);
    const checkpoint: Checkpoint = {
      v: 4,
      id: uuid6(-1),
      ts: new Date().toISOString(),
      channel_values: { messages: value, profile, tools },
      channel_versions: { messages: i + 1, profile: 1, tools: 1 },
      versions_seen: { agent: { messages: i } },
    };
    const newVersions: Record<string, number> = i === 0 ? { messages: 1, profile: 1, tools: 1 } : { messages: i + 1 };
    config = (await saver.put(config, checkpoint, { source: 'loop', step: i, parents: {} }, newVersions)) as typeof config;
    ids.push(checkpoint.id);
  }
  return ids;
}

/** put, putWrites, getTuple (latest and by id), list(100), and the bytes after a 200-step growing run. */
export async function langgraphSaver(ctx: BenchContext): Promise<Sample[]> {
  const samples: Sample[] = [];
  const count = n(ctx, 2000, 150);
  const dir = ctx.dir();
  for (const { name, saver, close } of await savers(dir)) {
    // put: measured as the time of the whole chain (one of three channels changed per put).
    const start = process.hrtime.bigint();
    const ids = await putChain(saver, THREAD, count, false);
    samples.push({ scenario: 'saver put (1 of 3 channels changed)', impl: name, unit: 'ops/s', value: count / (Number(process.hrtime.bigint() - start) / 1e9) });
    const latest = { configurable: { thread_id: THREAD, checkpoint_ns: '', checkpoint_id: ids[ids.length - 1] } };
    // Writes go to the first checkpoint, so that the reads below see a normal number of them.
    const first = { configurable: { thread_id: THREAD, checkpoint_ns: '', checkpoint_id: ids[0] } };
    const writes: PendingWrite[] = [['messages', agentState(512, 3)], ['branch:to:tools', null]];
    samples.push({ scenario: 'saver putWrites (2 writes)', impl: name, unit: 'ops/s', value: await opsPerSecond((i) => saver.putWrites(first, writes, `task-${i}`), count) });
    // The latest checkpoint has two pending writes, as after a step.
    await saver.putWrites(latest, writes, 'task-latest');
    const thread = { configurable: { thread_id: THREAD, checkpoint_ns: '' } };
    const byId = (i: number) => ({ configurable: { thread_id: THREAD, checkpoint_ns: '', checkpoint_id: ids[1 + ((Math.abs(i) * 7919) % (ids.length - 1))] } });
    samples.push({ scenario: 'saver getTuple latest', impl: name, unit: 'ops/s', value: await opsPerSecond(() => saver.getTuple(thread), count) });
    samples.push({ scenario: 'saver getTuple by id', impl: name, unit: 'ops/s', value: await opsPerSecond((i) => saver.getTuple(byId(i)), count) });
    const list100 = async () => {
      let k = 0;
      for await (const t of saver.list(thread, { limit: 100, before: latest })) if (t.checkpoint) k++;
      if (k !== 100) throw new Error(`list returned ${k}`);
    };
    samples.push({ scenario: 'saver list(100)', impl: name, unit: 'ops/s', value: await opsPerSecond(list100, n(ctx, 200, 10), 5) });
    await close();
  }
  // Storage: a 200-step run whose message list grows every step, in fresh files.
  for (const { name, saver, bytes, close } of await savers(ctx.dir())) {
    await putChain(saver, 'growing', 200, true);
    await close();
    samples.push({ scenario: 'saver bytes after 200 growing steps', impl: name, unit: 'KiB', value: bytes() / 1024 });
  }
  return samples;
}
