import type { CheckpointTuple } from '@langchain/langgraph-checkpoint';
import type { CheckpointStore } from '@session-checkpoint/core';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { dropSchema, PG_URL, tempDir, uniqueSchema } from './test-support/backends.js';
import { startSaverChild } from './test-support/children.js';
import { openTarget } from './test-support/open-target.mjs';
import { cfg, checkpointWith, meta } from './test-support/checkpoints.js';

/*
 * Real processes: several OS processes put into different threads of one store at once, and a
 * process killed with SIGKILL in the middle of its puts leaves a store where every checkpoint
 * verifies and reads back whole.
 */

const tmp = tempDir();
const schemas: string[] = [];
afterAll(async () => {
  tmp.remove();
  for (const s of schemas) await dropSchema(s);
});

const targets = [
  { name: 'sqlite', available: true, make: () => `sqlite:${join(tmp.dir, `p-${Math.random().toString(36).slice(2)}.db`)}` },
  ...(['postgres', 'postgres-lockrow'] as const).map((kind) => ({
    // postgres-lockrow: an adapter without transactionLock, so the saver takes its lock row instead.
    name: kind,
    available: PG_URL !== undefined,
    make: () => {
      const schema = uniqueSchema('sc_lg_proc');
      schemas.push(schema);
      return `${kind}:${schema}`;
    },
  })),
];

function open(target: string): Promise<CheckpointStore> {
  return openTarget(target);
}

async function tuples(saver: SessionCheckpointSaver, thread: string): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = [];
  for await (const t of saver.list({ configurable: { thread_id: thread } })) out.push(t);
  return out;
}

describe.each(targets)('processes on $name', (backend) => {
  it.skipIf(!backend.available)('concurrent processes on different threads each keep a whole chain', async () => {
    const target = backend.make();
    // Create the schema once before the children race to open it.
    await (await open(target)).close();
    const children = ['a', 'b', 'c'].map((thread) => startSaverChild(target, thread, 15));
    const results = await Promise.all(children.map((c) => c.done));
    expect(results.map((r) => [r.code, r.stderr])).toEqual([[0, ''], [0, ''], [0, '']]);
    const store = await open(target);
    try {
      const saver = new SessionCheckpointSaver(store);
      for (const thread of ['a', 'b', 'c']) {
        const all = await tuples(saver, thread);
        expect(all).toHaveLength(15);
        const latest = all[0];
        expect(latest?.checkpoint.channel_values.system).toBe(`system of ${thread}`);
        expect((latest?.checkpoint.channel_values.turn as { step: number }).step).toBe(14);
        expect(latest?.pendingWrites).toEqual([['task-14', 'turn', { step: 15 }]]);
      }
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('SIGKILL during puts leaves only whole, verified checkpoints', async () => {
    const target = backend.make();
    await (await open(target)).close();
    const child = startSaverChild(target, 'killed', 'forever');
    await child.waitForPuts(20);
    child.process.kill('SIGKILL');
    const result = await child.done;
    expect(result.signal).toBe('SIGKILL');
    const store = await open(target);
    try {
      expect((await store.verify()).failures).toEqual([]);
      const saver = new SessionCheckpointSaver(store);
      const all = await tuples(saver, 'killed');
      expect(all.length).toBeGreaterThanOrEqual(20);
      // Newest first, one per step, each with every channel readable.
      all.forEach((t, i) => {
        expect((t.checkpoint.channel_values.turn as { step: number }).step).toBe(all.length - 1 - i);
        expect(t.checkpoint.channel_values.system).toBe('system of killed');
      });
      // The store stays writable after the kill.
      const next = startSaverChild(target, 'other', 2);
      expect((await next.done).code).toBe(0);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('a put after another process deleted the thread stores what it cannot link to', async () => {
    const target = backend.make();
    const store = await open(target);
    try {
      // The lock-row target exercises the saver's fallback for adapters without transactionLock.
      expect(store.adapter.capabilities.transactionLocks === true).toBe(!target.startsWith('postgres-lockrow:'));
      const saver = new SessionCheckpointSaver(store);
      const first = checkpointWith({ big: 'b'.repeat(10_000), turn: 1 });
      const c1 = await saver.put(cfg('gone'), first, meta(0), first.channel_versions);
      // Process B deletes the thread; this process still remembers c1 as the holder of "big".
      const child = startSaverChild(target, 'gone', 'delete');
      expect((await child.done).code).toBe(0);
      const second = { ...checkpointWith({ big: 'b'.repeat(10_000), turn: 2 }), channel_versions: { big: 1, turn: 2 } };
      const c2 = await saver.put(c1, second, meta(1), { turn: 2 });
      expect((await saver.getTuple(c2))?.checkpoint.channel_values).toEqual({ big: 'b'.repeat(10_000), turn: 2 });
      expect(await tuples(saver, 'gone')).toHaveLength(1);
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('three processes on one thread with maxCheckpointsPerThread: 3 leave every kept checkpoint readable', async () => {
    const target = backend.make();
    await (await open(target)).close();
    const children = [0, 1, 2].map(() => startSaverChild(target, 'shared', 12, { SC_LG_MAX: '3' }));
    const results = await Promise.all(children.map((c) => c.done));
    expect(results.map((r) => [r.code, r.stderr])).toEqual([[0, ''], [0, ''], [0, '']]);
    const store = await open(target);
    try {
      const all = await tuples(new SessionCheckpointSaver(store), 'shared');
      expect(all.length).toBeGreaterThanOrEqual(3);
      for (const t of all) expect(t.checkpoint.channel_values.system).toBe('system of shared');
      // The children link "system" (inlineCarriedBytes 0), so the kept rows depend on earlier ones.
      const rows = await store.list({ namespace: 'langgraph', limit: 100 });
      expect(rows.some((r) => Object.keys((r.payload as { carried?: object }).carried ?? {}).length > 0)).toBe(true);
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
