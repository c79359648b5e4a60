import { Checkpointer } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { join } from 'node:path';
import { n, type BenchContext, type Sample } from '../context.js';
import { opsPerSecond } from '../harness.js';
import { agentState } from '../payloads.js';
import { LangGraphPeer } from '../peers/langgraph.js';
import { RawFloor } from '../peers/raw-floor.js';

const ROWS = 1200;

/** Our store's impl name when it re-hashes every row it reads (no verified-text memo). */
export const EVERY_READ_HASHED = 'session-checkpoint, verifiedTextCache 0';

/**
 * Reads over the same data in all three: 1,200 checkpoints of 1 KiB in one session (so
 * LangGraph's per-thread list has as many rows to return as ours). get by id, latest of a
 * session, list 100 and 1000, and the thread API's history(20).
 */
export async function sqliteReads(ctx: BenchContext): Promise<Sample[]> {
  const dir = ctx.dir();
  const payloads = Array.from({ length: 16 }, (_, i) => agentState(1024, i));
  const store = await openSqliteStore(join(dir, 'ours.sqlite'), { durability: 'normal' });
  const threads = new Checkpointer(store, { namespace: 'bench', maxHistory: 10_000 });
  const ids: number[] = [];
  await store.transaction(async (tx) => {
    for (let i = 0; i < ROWS; i++) {
      const minute = String(i % 60).padStart(2, '0');
      const cp = await tx.create({ namespace: 'bench', sessionId: 's-0', payload: payloads[i & 15]!, createdAt: `2026-08-08T${String(Math.floor(i / 60)).padStart(2, '0')}:${minute}:00Z` });
      ids.push(cp.id);
    }
  });
  const floor = new RawFloor(join(dir, 'floor.sqlite'), 'normal');
  const floorIds: number[] = [];
  for (let i = 0; i < ROWS; i++) floorIds.push(floor.insert('s-0', payloads[i & 15]!, '2026-08-08T07:00:00Z'));
  const saver = LangGraphPeer.sqlite(join(dir, 'langgraph.sqlite'), 'normal');
  for (let i = 0; i < ROWS; i++) await saver.put('s-0', payloads[i & 15]!);

  const samples: Sample[] = [];
  const pick = (list: number[], i: number) => list[(i * 7919) % list.length]!;
  const reads = n(ctx, 5000);

  // The reads re-read these 1,200 rows, so the store's verified-text memo answers most of them: the
  // same file through a store that hashes every row it reads shows what a read costs cold.
  const cold = await openSqliteStore(join(dir, 'ours.sqlite'), { durability: 'normal', verifiedTextCache: 0 });
  samples.push({ scenario: 'get by id 1KiB', impl: 'session-checkpoint', unit: 'ops/s', value: await opsPerSecond((i) => store.get(pick(ids, Math.abs(i)), { namespace: 'bench' }), reads) });
  samples.push({ scenario: 'get by id 1KiB', impl: EVERY_READ_HASHED, unit: 'ops/s', value: await opsPerSecond((i) => cold.get(pick(ids, Math.abs(i)), { namespace: 'bench' }), reads) });
  samples.push({ scenario: 'get by id 1KiB', impl: 'raw floor', unit: 'ops/s', value: await opsPerSecond((i) => floor.get(pick(floorIds, Math.abs(i))), reads) });
  samples.push({ scenario: 'get by id 1KiB', impl: 'SqliteSaver.getTuple', unit: 'ops/s', value: await opsPerSecond(() => saver.getTuple('s-0'), reads) });

  samples.push({ scenario: 'latest of a session', impl: 'session-checkpoint', unit: 'ops/s', value: await opsPerSecond(() => store.latest('s-0', { namespace: 'bench' }), reads) });
  samples.push({ scenario: 'latest of a session', impl: EVERY_READ_HASHED, unit: 'ops/s', value: await opsPerSecond(() => cold.latest('s-0', { namespace: 'bench' }), reads) });
  samples.push({ scenario: 'latest of a session', impl: 'raw floor', unit: 'ops/s', value: await opsPerSecond(() => floor.latest('s-0'), reads) });
  samples.push({ scenario: 'latest of a session', impl: 'SqliteSaver.getTuple', unit: 'ops/s', value: await opsPerSecond(() => saver.getTuple('s-0'), reads) });

  for (const limit of [100, 1000]) {
    const scenario = `list ${limit}`;
    const count = n(ctx, limit === 100 ? 300 : 40);
    samples.push({ scenario, impl: 'session-checkpoint', unit: 'ops/s', value: await opsPerSecond(() => store.list({ namespace: 'bench', limit }), count, 3) });
    samples.push({ scenario, impl: EVERY_READ_HASHED, unit: 'ops/s', value: await opsPerSecond(() => cold.list({ namespace: 'bench', limit }), count, 3) });
    samples.push({ scenario, impl: 'raw floor', unit: 'ops/s', value: await opsPerSecond(() => floor.list(limit), count, 3) });
    samples.push({ scenario, impl: 'SqliteSaver.list', unit: 'ops/s', value: await opsPerSecond(() => saver.list('s-0', limit), count, 3) });
  }

  const historyCount = n(ctx, 1000);
  samples.push({ scenario: 'history 20', impl: 'session-checkpoint', unit: 'ops/s', value: await opsPerSecond(() => threads.history('s-0', 20), historyCount) });
  samples.push({ scenario: 'history 20', impl: 'SqliteSaver.list', unit: 'ops/s', value: await opsPerSecond(() => saver.list('s-0', 20), historyCount) });

  await cold.close();
  await store.close();
  floor.close();
  saver.close();
  return samples;
}
