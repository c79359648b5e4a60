import { INTERRUPT } from '@langchain/langgraph-checkpoint';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { backends } from './test-support/backends.js';
import { cfg, checkpointWith, listThread, meta } from './test-support/checkpoints.js';

/*
 * Retention that is safe for human-in-the-loop: prune never removes the newest checkpoint, one
 * whose interrupt is still waiting for its resume, or one holding a value a kept checkpoint reads;
 * deleteThread removes a thread's rows, values and writes together.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

/** A chain where `steps` changes every step and `system` only at the first one. */
async function chain(saver: SessionCheckpointSaver, thread: string, n: number, from?: { parent: string; step: number }): Promise<string[]> {
  const ids: string[] = [];
  let parent = from?.parent;
  for (let i = from?.step ?? 0; i < (from?.step ?? 0) + n; i++) {
    const values = { steps: Array.from({ length: i + 1 }, (_, k) => `step ${k}`), system: 'you are helpful' };
    const versions = { steps: i + 1, system: 1 };
    const cp = { ...checkpointWith(values), channel_versions: versions };
    const newVersions = i === 0 ? versions : { steps: i + 1 };
    const config = await saver.put(cfg(thread, parent), cp, meta(i), newVersions);
    parent = config.configurable?.checkpoint_id as string;
    ids.push(parent);
  }
  return ids;
}

describe.each(list)('retention on $name', (backend) => {
  it.skipIf(!backend.available)('keeps the newest, the value holders and an unresumed interrupt; reports the bytes freed', async () => {
    const store = await backend.open();
    try {
      // Lists in full at every step (snapshotRatio 0): only carried values link rows here, and
      // they are linked even though small (inlineCarriedBytes 0).
      const saver = new SessionCheckpointSaver(store, { snapshotRatio: 0, inlineCarriedBytes: 0 });
      const ids = await chain(saver, 't', 4);
      // A fork from checkpoint 1 whose interrupt was never resumed (it waits for a human)...
      const [fork] = await chain(saver, 't', 1, { parent: ids[1] as string, step: 2 });
      await saver.putWrites(cfg('t', fork), [[INTERRUPT, { question: 'ok?' }]], 'task-x');
      ids.push(...(await chain(saver, 't', 4, { parent: ids[3] as string, step: 4 })));
      // ...and an interrupt on checkpoint 5 that was resumed (checkpoint 6 follows it).
      await saver.putWrites(cfg('t', ids[5]), [[INTERRUPT, { question: 'ok?' }]], 'task-y');
      await chain(saver, 'other', 3);
      const before = await store.verify();

      const dry = await saver.prune({ threadId: 't', keepLatest: 2 });
      expect(dry.dryRun).toBe(true);
      expect((await store.verify()).checked).toBe(before.checked);

      const report = await saver.prune({ threadId: 't', keepLatest: 2, apply: true });
      expect(report.dryRun).toBe(false);
      const pruned = report.checkpoints.map((c) => c.checkpointId).sort();
      expect(pruned).toEqual([ids[1], ids[2], ids[3], ids[4], ids[5]].sort());
      expect(report.keptForInterrupt).toEqual([fork]);
      expect(report.keptForValues).toEqual([ids[0]]);
      expect(report.writes).toBe(1);
      const after = await store.verify();
      expect(after.checked).toBe(before.checked - 6);
      expect(after.failures).toEqual([]);
      expect(report.freedBytes).toBeGreaterThan(0);

      const kept = await listThread(saver, 't');
      expect(kept.map((t) => t.checkpoint.id)).toEqual([ids[7], ids[6], fork, ids[0]]);
      const latest = await saver.getTuple(cfg('t'));
      expect(latest?.checkpoint.channel_values).toEqual({ steps: Array.from({ length: 8 }, (_, k) => `step ${k}`), system: 'you are helpful' });
      expect((await saver.getTuple(cfg('t', fork)))?.pendingWrites?.[0]?.[1]).toBe(INTERRUPT);
      expect((await saver.getTuple(cfg('t', fork)))?.checkpoint.channel_values.system).toBe('you are helpful');
      expect(await listThread(saver, 'other')).toHaveLength(3);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('maxCheckpointsPerThread caps each thread as it grows, never losing a value', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store, { maxCheckpointsPerThread: 3, snapshotRatio: 0, inlineCarriedBytes: 0 });
      const ids = await chain(saver, 't', 10);
      const kept = await listThread(saver, 't');
      // The three newest, plus checkpoint 0 that holds "system" for all of them.
      expect(kept.map((t) => t.checkpoint.id)).toEqual([ids[9], ids[8], ids[7], ids[0]]);
      for (const t of kept.slice(0, 3)) expect(t.checkpoint.channel_values.system).toBe('you are helpful');
      expect(() => new SessionCheckpointSaver(store, { maxCheckpointsPerThread: 0 })).toThrow(/positive integer/);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('deleteThread removes checkpoints, values and writes of that thread only', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const ids = await chain(saver, 'gone', 4);
      await saver.putWrites(cfg('gone', ids[3]), [['x', 1]], 'task');
      await chain(saver, 'stays', 2);
      await saver.deleteThread('gone');
      expect(await listThread(saver, 'gone')).toEqual([]);
      expect(await saver.getTuple(cfg('gone'))).toBeUndefined();
      expect((await store.sessions({ namespace: 'langgraph' })).map((s) => s.sessionId)).toEqual(['stays']);
      expect(await listThread(saver, 'stays')).toHaveLength(2);
      // The thread can start again from nothing.
      await chain(saver, 'gone', 1);
      expect(await listThread(saver, 'gone')).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('maxCheckpointsPerThread prunes every ceil(max / 4) puts, and every kept checkpoint reads whole', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store, { maxCheckpointsPerThread: 8 });
      const ids = await chain(saver, 't', 30);
      const kept = await listThread(saver, 't');
      // Pruned at puts 2, 4, ..., 30 (ceil(8 / 4) = 2): the 8 newest stay, plus the list chain they read.
      expect(kept.slice(0, 8).map((t) => t.checkpoint.id)).toEqual(ids.slice(-8).reverse());
      expect(kept.length).toBeLessThanOrEqual(8 + 8 + 1);
      for (const t of kept) {
        const i = ids.indexOf(t.checkpoint.id);
        expect(t.checkpoint.channel_values).toEqual({ steps: Array.from({ length: i + 1 }, (_, k) => `step ${k}`), system: 'you are helpful' });
      }
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
