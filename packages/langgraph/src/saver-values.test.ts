import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { CheckpointValidationError } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { backends } from './test-support/backends.js';
import { cfg, checkpointWith, meta } from './test-support/checkpoints.js';

/*
 * Values: what JsonPlusSerializer round-trips comes back equal; what it would silently mangle
 * (BigInt, NaN, Infinity, cycles, invalid Dates) is refused at put/putWrites, and nothing is written.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.each(list)('values on $name', (backend) => {
  it.skipIf(!backend.available)('round-trips bytes, Set, Map, messages, undefined and nested bytes', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const values = {
        bytes: new Uint8Array([0, 1, 254, 255]),
        set: new Set(['a', 'b']),
        map: new Map<string, unknown>([['k', { deep: [1, 2] }]]),
        messages: [new HumanMessage('hi'), new AIMessage({ content: 'yo', id: 'm-2' })],
        missing: undefined,
        nested: { inner: new Uint8Array([7]), list: [undefined, 1.5, 'x'] },
        big: 'x'.repeat(200_000),
      };
      const cp = checkpointWith(values);
      const config = await saver.put(cfg('t'), cp, meta(0), cp.channel_versions);
      await saver.putWrites(config, [['raw', new Uint8Array([9, 8, 7])], ['obj', new Set([1])]], 'task-1');
      const tuple = await saver.getTuple(config);
      expect(tuple?.checkpoint.channel_values).toEqual(values);
      expect(tuple?.checkpoint.channel_values.bytes).toBeInstanceOf(Uint8Array);
      expect((tuple?.checkpoint.channel_values.messages as unknown[])[0]).toBeInstanceOf(HumanMessage);
      expect(tuple?.pendingWrites).toEqual([
        ['task-1', 'raw', new Uint8Array([9, 8, 7])],
        ['task-1', 'obj', new Set([1])],
      ]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('refuses BigInt, NaN, Infinity, cycles and invalid Dates at put and putWrites, storing nothing', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const cyclic: Record<string, unknown> = { a: 1 };
      cyclic.self = cyclic;
      const bad: [string, unknown, RegExp][] = [
        ['count', 10n, /channel 'count' is a BigInt/],
        ['score', { deep: [NaN] }, /channel 'score'\.deep\[0\] is NaN/],
        ['inf', Infinity, /channel 'inf' is Infinity/],
        ['loop', cyclic, /channel 'loop'\.self is a circular reference/],
        ['when', new Date('nope'), /invalid Date/],
        ['inMap', new Map([['k', 1n]]), /BigInt/],
      ];
      for (const [channel, value, message] of bad) {
        const cp = checkpointWith({ [channel]: value, fine: 'ok' });
        const put = saver.put(cfg('t'), cp, meta(0), cp.channel_versions);
        await expect(put).rejects.toThrow(CheckpointValidationError);
        await expect(saver.put(cfg('t'), cp, meta(0), cp.channel_versions)).rejects.toThrow(message);
      }
      await expect(saver.put(cfg('t'), checkpointWith({}), { ...meta(0), extra: 5n } as never, {})).rejects.toThrow(/metadata\.extra is a BigInt/);
      const ok = checkpointWith({ fine: 'ok' });
      const config = await saver.put(cfg('t'), ok, meta(0), ok.channel_versions);
      await expect(saver.putWrites(config, [['n', 1n]], 'task')).rejects.toThrow(/write 'n' of task task is a BigInt/);
      // Only the good checkpoint is stored: no junk rows.
      expect((await store.verify()).checked).toBe(1);
      expect((await saver.getTuple(config))?.pendingWrites).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('splits a value over the store payload cap across rows, each within it', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      // Over the cap, with quotes (escaped: twice the bytes) and astral characters (never cut in half).
      const huge = `${'x"'.repeat(store.limits.maxPayloadBytes / 2)}😀${'y'.repeat(1000)}`;
      const cp = checkpointWith({ huge, small: 1 });
      const config = await saver.put(cfg('t'), cp, meta(0), cp.channel_versions);
      expect((await saver.getTuple(config))?.checkpoint.channel_values).toEqual({ huge, small: 1 });
      // A pending write over the cap too (a tool's output), merged with a later write of the task.
      await saver.putWrites(config, [['out', { text: huge }]], 'task-1');
      await saver.putWrites(config, [['__error__', 'boom']], 'task-1');
      expect((await saver.getTuple(config))?.pendingWrites).toEqual([
        ['task-1', '__error__', 'boom'],
        ['task-1', 'out', { text: huge }],
      ]);
      const report = await store.verify();
      expect(report.failures).toEqual([]);
      expect(report.checked).toBeGreaterThanOrEqual(3);
      const rows = await store.list({ namespace: 'langgraph', limit: 100 });
      for (const row of rows) expect(row.payloadJson.length).toBeLessThanOrEqual(store.limits.maxPayloadBytes);
      expect(rows.filter((r) => r.kind === 'langgraph.part').length).toBeGreaterThanOrEqual(2);
    } finally {
      await store.close();
    }
  });
});

describe('latest checkpoint lookup', () => {
  it('finds the latest checkpoint when writes for an id that was never put sort above it', async () => {
    const [memory] = backends();
    const store = await memory!.open();
    const saver = new SessionCheckpointSaver(store);
    const cp = checkpointWith({ a: 1 });
    await saver.put(cfg('t'), cp, meta(0), cp.channel_versions);
    await saver.putWrites(cfg('t', 'ffffffff-never-put'), [['a', 2]], 'task');
    expect((await saver.getTuple(cfg('t')))?.checkpoint.id).toBe(cp.id);
    await store.close();
  });
});
