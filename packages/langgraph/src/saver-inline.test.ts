import type { CheckpointStore } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { jsonSizeWithin } from './write/capture.js';
import type { CheckpointPayload } from './format/payloads.js';
import { backends } from './test-support/backends.js';
import { cfg, checkpointWith, listThread, meta } from './test-support/checkpoints.js';

/*
 * inlineCarriedBytes: a row whose unchanged values are small plain JSON, and whose changed values
 * link to no earlier row, repeats them and so holds everything its tuple needs; otherwise it links
 * each unchanged value to the row that holds it.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

/** The stored payload of each checkpoint of `thread`, by checkpoint id. */
async function payloads(store: CheckpointStore, thread: string): Promise<Map<string, CheckpointPayload>> {
  const rows = await store.history(thread, { namespace: 'langgraph', limit: 100 });
  const out = new Map<string, CheckpointPayload>();
  for (const row of rows) if (row.kind === 'langgraph.checkpoint') out.set((row.payload as unknown as CheckpointPayload).checkpoint_id, row.payload as unknown as CheckpointPayload);
  return out;
}

/** `n` steps where `turn` is replaced each step and `extra` (channel -> value) never changes after the first. */
async function steps(saver: SessionCheckpointSaver, thread: string, n: number, extra: Record<string, unknown>, grow = false): Promise<string[]> {
  const ids: string[] = [];
  let parent: string | undefined;
  const items: string[] = [];
  for (let i = 0; i < n; i++) {
    items.push(`item ${i}`);
    const values = { ...extra, turn: grow ? items.slice() : `turn ${i}` };
    const versions = { ...Object.fromEntries(Object.keys(extra).map((k) => [k, 1])), turn: i + 1 };
    const cp = { ...checkpointWith(values), channel_versions: versions };
    const config = await saver.put(cfg(thread, parent), cp, meta(i), i === 0 ? versions : { turn: i + 1 });
    parent = config.configurable?.checkpoint_id as string;
    ids.push(parent);
  }
  return ids;
}

describe.each(list)('inline carried values on $name', (backend) => {
  it.skipIf(!backend.available)('repeats small unchanged values, so each row holds its whole state and survives its parents', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store, { maxCheckpointsPerThread: 2 });
      const extra = { system: 'you are helpful', profile: { name: 'Ada', tags: ['a', 'b'], score: 0.5 } };
      const ids = await steps(saver, 't', 9, extra);
      const stored = await payloads(store, 't');
      const last = stored.get(ids[8] as string);
      expect(last?.carried).toEqual({});
      expect(Object.keys(last?.values ?? {}).sort()).toEqual(['profile', 'system', 'turn']);
      // Retention keeps no older row back for the values: the newest rows alone remain.
      expect([...stored.keys()].sort()).toEqual(ids.slice(-stored.size).sort());
      expect(stored.size).toBeLessThanOrEqual(3);
      const tuple = await saver.getTuple(cfg('t'));
      expect(tuple?.checkpoint.channel_values).toEqual({ ...extra, turn: 'turn 8' });
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('links them when they are larger than the budget, not plain JSON, or the row links anyway', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const big = { system: 'x'.repeat(5000) };
      const bigIds = await steps(saver, 'big', 3, big);
      expect((await payloads(store, 'big')).get(bigIds[2] as string)?.carried).toEqual({ system: bigIds[0] });

      // `turn` grows and is stored as its appended item, which links to the parent's row anyway.
      const growIds = await steps(saver, 'grow', 3, { system: 'short' }, true);
      const grown = (await payloads(store, 'grow')).get(growIds[2] as string);
      expect(grown?.lists?.turn?.j).toEqual(['item 2']);
      expect(grown?.carried).toEqual({ system: growIds[0] });
      expect((await saver.getTuple(cfg('grow')))?.checkpoint.channel_values).toEqual({ system: 'short', turn: ['item 0', 'item 1', 'item 2'] });

      const linking = new SessionCheckpointSaver(store, { inlineCarriedBytes: 0 });
      const zeroIds = await steps(linking, 'zero', 2, { system: 'short' });
      expect((await payloads(store, 'zero')).get(zeroIds[1] as string)?.carried).toEqual({ system: zeroIds[0] });
      expect((await listThread(linking, 'zero')).map((t) => t.checkpoint.channel_values.system)).toEqual(['short', 'short']);
    } finally {
      await store.close();
    }
  });
});

describe('inlineCarriedBytes option', () => {
  it('must be a non-negative integer', async () => {
    const store = await list[0]?.open();
    if (!store) throw new Error('no memory backend');
    expect(() => new SessionCheckpointSaver(store, { inlineCarriedBytes: -1 })).toThrow('inlineCarriedBytes must be an integer >= 0');
    expect(() => new SessionCheckpointSaver(store, { inlineCarriedBytes: 1.5 })).toThrow('inlineCarriedBytes must be an integer >= 0');
    expect(new SessionCheckpointSaver(store).inlineCarriedBytes).toBe(4096);
  });
});

describe('jsonSizeWithin', () => {
  it('gives the compact JSON length of plain ASCII data within the budget', () => {
    for (const value of [null, true, false, 0, -1.5, 'ab', [], {}, [1, 'x', null], { a: [1, { b: 'c' }], d: false }]) {
      expect(jsonSizeWithin(value, 1000)).toBe(JSON.stringify(value).length);
    }
  });

  it('stops at the budget, and refuses what is not plain JSON', () => {
    expect(jsonSizeWithin('x'.repeat(10), 12)).toBe(12);
    expect(jsonSizeWithin('x'.repeat(11), 12)).toBeUndefined();
    expect(jsonSizeWithin(Array.from({ length: 100_000 }, (_, i) => i), 50)).toBeUndefined();
    for (const value of [undefined, Number.NaN, 1n, new Date(0), new Map(), [new Map()], { a: () => 1 }]) {
      expect(jsonSizeWithin(value, 1000)).toBeUndefined();
    }
  });
});
