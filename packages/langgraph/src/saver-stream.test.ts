import { MemorySaver, type BaseCheckpointSaver, type CheckpointTuple } from '@langchain/langgraph-checkpoint';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { backends } from './test-support/backends.js';
import { cfg, checkpointWith, meta } from './test-support/checkpoints.js';

/*
 * list streams: each tuple is rebuilt when the caller pulls it, from rows shared with the tuples
 * after it. Whatever the caller does to a tuple it holds (LangGraph's getStateHistory hands the
 * values to the user), the next tuples are still the values that were put, as on MemorySaver,
 * within a thread and across threads.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

/** Puts the same growing chain on both savers: `items` grows by one object per step, `system` is carried. */
async function chain(savers: BaseCheckpointSaver[], thread: string, steps: number): Promise<void> {
  const parents: (string | undefined)[] = savers.map(() => undefined);
  for (let i = 0; i < steps; i++) {
    const items = Array.from({ length: i + 1 }, (_, k) => ({ id: `${thread}-${k}`, text: `item ${k} of ${thread}`, tags: [k] }));
    const cp = { ...checkpointWith({ items, system: { prompt: 'sys' } }), channel_versions: { items: i + 1, system: 1 } };
    for (const [s, saver] of savers.entries()) {
      const config = await saver.put(cfg(thread, parents[s]), structuredClone(cp), meta(i), i === 0 ? { items: 1, system: 1 } : { items: i + 1 });
      parents[s] = String(config.configurable?.checkpoint_id);
    }
  }
}

/** Every tuple of `config`, each vandalised by the caller right after it came. */
async function drainAndVandalise(saver: BaseCheckpointSaver, config: object, limit?: number): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = [];
  for await (const t of saver.list(config, limit === undefined ? {} : { limit })) {
    out.push(structuredClone(t));
    const values = t.checkpoint.channel_values as { items: { text: string; tags: number[] }[]; system: { prompt: string } };
    for (const item of values.items) {
      item.text = 'vandalised';
      item.tags.push(-1);
    }
    values.items.push({ text: 'extra', tags: [] });
    values.system.prompt = 'vandalised';
  }
  return out;
}

const shape = (tuples: CheckpointTuple[]) => tuples.map((t) => ({ id: t.checkpoint.id, values: t.checkpoint.channel_values, parent: t.parentConfig?.configurable?.checkpoint_id }));

describe.each(list)('streaming list on $name', (backend) => {
  it.skipIf(!backend.available)('yields what MemorySaver does, whatever the caller does to the tuples it holds', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store, { inlineCarriedBytes: 0, snapshotRatio: 1 });
      const memory = new MemorySaver();
      await chain([saver, memory], 'a', 30);
      await chain([saver, memory], 'b', 12);
      for (const [config, limit] of [[cfg('a'), undefined], [cfg('a'), 7], [{ configurable: { thread_id: 'b' } }, undefined]] as const) {
        const ours = await drainAndVandalise(saver, config, limit);
        const theirs = await drainAndVandalise(memory, config, limit);
        expect(ours.length).toBe(theirs.length);
        expect(shape(ours)).toEqual(shape(theirs));
      }
      // Across threads: MemorySaver goes thread by thread, ours newest first across them.
      const ours = await drainAndVandalise(saver, {});
      const byId = shape(await drainAndVandalise(memory, {})).sort((x, y) => (x.id < y.id ? 1 : -1));
      expect(ours).toHaveLength(42);
      expect(shape(ours)).toEqual(byId);
      expect(shape(await drainAndVandalise(saver, {}, 20))).toEqual(byId.slice(0, 20));
      // A fresh saver (nothing remembered) reads the same.
      const fresh = new SessionCheckpointSaver(store);
      expect(shape(await drainAndVandalise(fresh, cfg('a')))).toEqual(shape(await drainAndVandalise(memory, cfg('a'))));
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('stops reading when the caller stops pulling, and a later list starts afresh', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const memory = new MemorySaver();
      await chain([saver, memory], 'a', 10);
      const first: CheckpointTuple[] = [];
      for await (const t of saver.list(cfg('a'))) {
        first.push(t);
        if (first.length === 3) break;
      }
      expect(first.map((t) => (t.checkpoint.channel_values.items as unknown[]).length)).toEqual([10, 9, 8]);
      expect(shape(await drainAndVandalise(saver, cfg('a')))).toEqual(shape(await drainAndVandalise(memory, cfg('a'))));
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('walks many threads at once, keeping the rows of a few, and reads back every one', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store, { inlineCarriedBytes: 0 });
      const memory = new MemorySaver();
      // Interleaved: each round adds a step to every thread, so a walk newest first hops between all 12.
      const threads = Array.from({ length: 12 }, (_, i) => `t${i}`);
      const parents = new Map<string, (string | undefined)[]>();
      for (let step = 0; step < 4; step++) {
        for (const t of threads) {
          const items = Array.from({ length: step + 1 }, (_, k) => ({ id: `${t}-${k}`, text: `${k}`, tags: [k] }));
          const cp = { ...checkpointWith({ items, system: { prompt: t } }), channel_versions: { items: step + 1, system: 1 } };
          const ps = parents.get(t) ?? [undefined, undefined];
          for (const [s, target] of [saver, memory].entries()) {
            const config = await target.put(cfg(t, ps[s]), structuredClone(cp), meta(step), step === 0 ? { items: 1, system: 1 } : { items: step + 1 });
            ps[s] = String(config.configurable?.checkpoint_id);
          }
          parents.set(t, ps);
        }
      }
      const byId = shape(await drainAndVandalise(memory, {})).sort((x, y) => (x.id < y.id ? 1 : -1));
      expect(byId).toHaveLength(48);
      expect(shape(await drainAndVandalise(saver, {}))).toEqual(byId);
    } finally {
      await store.close();
    }
  });
});
