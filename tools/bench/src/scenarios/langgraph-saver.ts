import { uuid6, type BaseCheckpointSaver, type Checkpoint } from '@langchain/langgraph-checkpoint';
import { join } from 'node:path';
import { n, type BenchContext, type Sample } from '../context.js';
import { opsPerSecond } from '../harness.js';
import { agentState } from '../payloads.js';
import { interleavedRounds, saverCalls, THREAD, writes } from '../saver-calls.js';
import { fileBytes, openOurSqliteSaver, openSqliteSaver, postgresStorage } from '../saver-backends.js';
import { walPagesOf } from '../wal-pages.js';

/*
 * SessionCheckpointSaver against LangGraph's SqliteSaver, side by side in one run on files in the
 * same directory, both in WAL mode (SqliteSaver switches to it itself) at synchronous=NORMAL (set
 * here on both: SQLite's own default would be FULL for SqliteSaver), and against
 * PostgresSaver on the same server when SC_PG_URL is set. Each saver gets exactly the same calls:
 * a chain of checkpoints where one of three channels changes per step.
 */

type Saver = { name: string; saver: BaseCheckpointSaver; bytes: () => number; close: () => Promise<void>; path: string };

async function savers(dir: string): Promise<Saver[]> {
  const oursPath = join(dir, 'ours.sqlite');
  const peerPath = join(dir, 'langgraph.sqlite');
  return [
    { name: 'SessionCheckpointSaver', ...(await openOurSqliteSaver(oursPath)), bytes: () => fileBytes(oursPath), path: oursPath },
    { name: 'SqliteSaver', ...openSqliteSaver(peerPath), bytes: () => fileBytes(peerPath), path: peerPath },
  ];
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


/** Calls per round of the interleaved write measurement. */
const ROUND = 100;

/**
 * put and putWrites of a pair of savers in interleaved rounds of {@link ROUND} calls, the order
 * rotating per round, so that the machine's drift over the run hits both alike (blocks of 2,000
 * calls per saver, one after the other, were longer than the load's swings: docs/decisions/0023).
 * Each saver gets the same calls as {@link putChain} makes (one of three channels changed per put;
 * two writes per putWrites, to the chain's first checkpoint). Samples per saver: calls per second
 * of wall time and calls per second of this process's CPU time (the saver, the store and the
 * SQLite driver run here; a PostgreSQL server's CPU does not). Returns each saver's chain ids.
 */
async function interleavedWrites(ctx: BenchContext, prefix: string, pair: { name: string; saver: BaseCheckpointSaver }[]): Promise<{ samples: Sample[]; ids: string[][] }> {
  const rounds = Math.ceil(n(ctx, 2000, 150) / ROUND);
  const calls = saverCalls(pair.map((p) => p.saver), 'first');
  const samples: Sample[] = [];
  for (const [op, label] of [['put', 'put (1 of 3 channels changed)'], ['putWrites', 'putWrites (2 writes)']] as const) {
    const { wall, cpu } = await interleavedRounds(pair.length, rounds, ROUND, calls[op]);
    pair.forEach(({ name }, k) => {
      samples.push({ scenario: `${prefix} ${label}`, impl: name, unit: 'ops/s', value: (rounds * ROUND) / wall[k]! });
      samples.push({ scenario: `${prefix} ${label}, per CPU second`, impl: name, unit: 'ops/s', value: (rounds * ROUND) / cpu[k]! });
    });
  }
  return { samples, ids: pair.map((_, k) => calls.ids(k)) };
}

/** put and putWrites (interleaved), then getTuple (latest and by id) and list(100) of each saver of `pair`, as samples named `<prefix> ...`. */
async function measurePair(ctx: BenchContext, prefix: string, pair: { name: string; saver: BaseCheckpointSaver }[]): Promise<{ samples: Sample[]; ids: string[][] }> {
  const { samples, ids } = await interleavedWrites(ctx, prefix, pair);
  for (const [k, { name, saver }] of pair.entries()) {
    // The latest checkpoint has two pending writes, as after a step.
    await saver.putWrites({ configurable: { thread_id: THREAD, checkpoint_ns: '', checkpoint_id: ids[k]!.at(-1) } }, writes, 'task-latest');
    samples.push(...(await measureReads(ctx, prefix, name, saver, ids[k]!)));
  }
  return { samples, ids };
}

/** getTuple (latest and by id) and list(100) of the chain `ids` put by {@link interleavedWrites}. */
async function measureReads(ctx: BenchContext, prefix: string, name: string, saver: BaseCheckpointSaver, ids: string[]): Promise<Sample[]> {
  const samples: Sample[] = [];
  const count = n(ctx, 2000, 150);
  const latest = { configurable: { thread_id: THREAD, checkpoint_ns: '', checkpoint_id: ids[ids.length - 1] } };
  const thread = { configurable: { thread_id: THREAD, checkpoint_ns: '' } };
  const byId = (i: number) => ({ configurable: { thread_id: THREAD, checkpoint_ns: '', checkpoint_id: ids[1 + ((Math.abs(i) * 7919) % (ids.length - 1))] } });
  samples.push({ scenario: `${prefix} getTuple latest`, impl: name, unit: 'ops/s', value: await opsPerSecond(() => saver.getTuple(thread), count) });
  samples.push({ scenario: `${prefix} getTuple by id`, impl: name, unit: 'ops/s', value: await opsPerSecond((i) => saver.getTuple(byId(i)), count) });
  const list100 = async () => {
    let k = 0;
    for await (const t of saver.list(thread, { limit: 100, before: latest })) if (t.checkpoint) k++;
    if (k !== 100) throw new Error(`list returned ${k}`);
  };
  samples.push({ scenario: `${prefix} list(100)`, impl: name, unit: 'ops/s', value: await opsPerSecond(list100, n(ctx, 200, 10), 5) });
  return samples;
}

/**
 * WAL pages that one put and one putWrites write on SQLite, per saver on fresh files: `count` of
 * each after a chain of 200 puts. Not a speed but what bounds put and putWrites there (wal-pages.ts).
 */
async function walPages(ctx: BenchContext): Promise<Sample[]> {
  const samples: Sample[] = [];
  const count = n(ctx, 500, 50);
  for (const { name, saver, close, path } of await savers(ctx.dir())) {
    try {
      const ids = await putChain(saver, THREAD, 200, false);
      const latest = { configurable: { thread_id: THREAD, checkpoint_ns: '', checkpoint_id: ids[ids.length - 1] } };
      const puts = await walPagesOf(path, async () => {
        await putChain(saver, `${THREAD}-wal`, count, false);
      });
      const putWrites = await walPagesOf(path, async () => {
        for (let i = 0; i < count; i++) await saver.putWrites(latest, writes, `wal-task-${i}`);
      });
      samples.push(
        { scenario: 'saver WAL pages per put', impl: name, unit: 'pages/op', value: puts / count },
        { scenario: 'saver WAL pages per putWrites', impl: name, unit: 'pages/op', value: putWrites / count },
      );
    } finally {
      await close();
    }
  }
  return samples;
}

/** Our saver's impl name when its store re-hashes every row it reads (no verified-text memo). */
export const OURS_EVERY_READ_HASHED = 'SessionCheckpointSaver, verifiedTextCache 0';

/** The same against PostgresSaver and our saver on PostgreSQL, each in a fresh schema dropped afterwards. */
async function postgresSavers(ctx: BenchContext, url: string, turn: number): Promise<Sample[]> {
  const suffix = `${process.pid}_${Date.now()}`;
  const storages = [
    { name: 'SessionCheckpointSaver', storage: postgresStorage(url, `bench_lg_ours_${suffix}`, 'ours') },
    { name: 'PostgresSaver', storage: postgresStorage(url, `bench_lg_peer_${suffix}`, 'peer') },
  ];
  const samples: Sample[] = [];
  try {
    const opened = await Promise.all(inTurn(storages, turn).map(async ({ name, storage }) => ({ name, ...(await storage.open()) })));
    try {
      samples.push(...(await measurePair(ctx, 'PostgreSQL saver', opened)).samples);
    } finally {
      for (const { close } of opened) await close();
    }
  } finally {
    for (const { storage } of storages) await storage.drop();
  }
  return samples;
}

/** Calls of {@link langgraphSaver} so far in this process: odd calls measure the peer first. */
let calls = 0;

/** `pair` in the order of this call: ours first on even calls, the peer first on odd ones. */
function inTurn<T>(pair: T[], turn: number): T[] {
  return turn % 2 === 0 ? pair : [...pair].reverse();
}

/**
 * SQLite (and PostgreSQL when configured): the operations, and the bytes after a 200-step growing
 * run. The side measured first alternates from run to run, so that neither saver always runs on a
 * colder process (the first run's first put chain also warms up shared code: the serializer, uuid6).
 */
export async function langgraphSaver(ctx: BenchContext): Promise<Sample[]> {
  const samples: Sample[] = [];
  const turn = calls++;
  const pair = inTurn(await savers(ctx.dir()), turn);
  const { samples: measured, ids } = await measurePair(ctx, 'saver', pair);
  samples.push(...measured);
  for (const [k, { name, close, path }] of pair.entries()) {
    await close();
    if (name === 'SessionCheckpointSaver') {
      // The same reads through a store that hashes every row it reads: what a read costs cold.
      const cold = await openOurSqliteSaver(path, { verifiedTextCache: 0 });
      samples.push(...(await measureReads(ctx, 'saver', OURS_EVERY_READ_HASHED, cold.saver, ids[k]!)));
      await cold.close();
    }
  }
  // Storage: a 200-step run whose message list grows every step, in fresh files.
  for (const { name, saver, bytes, close } of await savers(ctx.dir())) {
    await putChain(saver, 'growing', 200, true);
    await close();
    samples.push({ scenario: 'saver bytes after 200 growing steps', impl: name, unit: 'KiB', value: bytes() / 1024 });
  }
  samples.push(...(await walPages(ctx)));
  if (ctx.pgUrl !== undefined) samples.push(...(await postgresSavers(ctx, ctx.pgUrl, turn)));
  return samples;
}
