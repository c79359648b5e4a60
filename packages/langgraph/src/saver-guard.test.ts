import { MemorySaver, type BaseCheckpointSaver, type CheckpointTuple } from '@langchain/langgraph-checkpoint';
import { CheckpointStore, CheckpointValidationError, MemoryAdapter } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { backends } from './test-support/backends.js';
import { cfg, checkpointWith, meta } from './test-support/checkpoints.js';

/*
 * The first wrong call gets a clear error: a constructor argument that is not a store, a config
 * field missing or of the wrong type (saying where it goes), a value the serializer would mangle
 * (with a hint that fits the value). Values MemorySaver keeps, this saver keeps: channels named
 * after Object.prototype members, typed arrays the serializer can write; nothing is half-written.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

/** An object with an own "__proto__" key, as JSON.parse makes it. */
const ODD = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', 'prototype'] as const;
function oddValues(offset: number): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  ODD.forEach((name, i) => Object.defineProperty(values, name, { value: { n: i + offset }, enumerable: true, writable: true, configurable: true }));
  return values;
}

/** Puts a checkpoint with the odd channels, then a child that changes only `valueOf` (the rest carried). */
async function putOdd(saver: BaseCheckpointSaver): Promise<{ first: CheckpointTuple | undefined; second: CheckpointTuple | undefined }> {
  const cp = checkpointWith(oddValues(0));
  const config = await saver.put(cfg('t'), cp, meta(0), cp.channel_versions);
  const child = { ...checkpointWith(oddValues(0)), channel_versions: { ...cp.channel_versions, valueOf: 2 } };
  Object.defineProperty(child.channel_values, 'valueOf', { value: { n: 99 }, enumerable: true, writable: true, configurable: true });
  const childConfig = await saver.put(config, child, meta(1), { valueOf: 2 });
  await saver.putWrites(childConfig, ODD.map((name, i) => [name, { w: i }]), 'task');
  await saver.putWrites(childConfig, [['__proto__', { w: 'again' }]], 'task-2');
  return { first: await saver.getTuple(config), second: await saver.getTuple(childConfig) };
}

function ownEntries(value: unknown): [string, unknown][] {
  return Object.keys(value as object).map((k) => [k, (value as Record<string, unknown>)[k]]);
}

describe.each(list)('odd names and values on $name', (backend) => {
  it.skipIf(!backend.available)('channels named after Object.prototype members round-trip like MemorySaver, as values and pending writes', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const ours = await putOdd(saver);
      const memory = await putOdd(new MemorySaver());
      for (const key of ['first', 'second'] as const) {
        const values = ours[key]?.checkpoint.channel_values;
        // MemorySaver turns a "__proto__" channel into the prototype of channel_values; here it stays a channel.
        expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
        expect(ownEntries(values).sort()).toEqual([...ownEntries(memory[key]?.checkpoint.channel_values), ['__proto__', { n: 4 }]].sort());
      }
      expect((ours.second?.checkpoint.channel_values as Record<string, unknown>).valueOf).toEqual({ n: 99 });
      expect(ours.second?.pendingWrites).toEqual([...ODD.map((name, i) => ['task', name, { w: i }]), ['task-2', '__proto__', { w: 'again' }]]);
      // Every later read of the thread still works.
      expect((await saver.getTuple(cfg('t')))?.checkpoint.id).toBe(ours.second?.checkpoint.id);
      const all: string[] = [];
      for await (const t of saver.list(cfg('t'))) all.push(t.checkpoint.id);
      expect(all).toHaveLength(2);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('typed arrays: kept as MemorySaver keeps them, refused where the serializer would mangle them', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const memory = new MemorySaver();
      const fine = { f64: new Float64Array([1.5, -2]), i16: new Int16Array([-1, 7]), u8: new Uint8Array([1, 2]), nested: { u32: new Uint32Array([3]) } };
      for (const s of [saver, memory] as BaseCheckpointSaver[]) {
        const cp = { ...checkpointWith(fine), id: 'fine' };
        await s.put(cfg('t'), cp, meta(0), cp.channel_versions);
      }
      expect((await saver.getTuple(cfg('t')))?.checkpoint.channel_values).toEqual((await memory.getTuple(cfg('t')))?.checkpoint.channel_values);
      const bad: [unknown, RegExp][] = [
        [new Float64Array([1, NaN]), /channel 'x'\[1\] is NaN/],
        [{ deep: new Float32Array([Infinity]) }, /channel 'x'\.deep\[0\] is Infinity/],
        [new BigInt64Array([5n]), /channel 'x' is a BigInt64Array/],
        [[new BigUint64Array([5n])], /channel 'x'\[0\] is a BigUint64Array/],
        [new ArrayBuffer(4), /channel 'x' is an ArrayBuffer.*Uint8Array/],
        [{ v: new DataView(new ArrayBuffer(4)) }, /channel 'x'\.v is a DataView.*Uint8Array/],
      ];
      for (const [value, message] of bad) {
        const cp = checkpointWith({ x: value });
        await expect(saver.put(cfg('t2'), cp, meta(0), cp.channel_versions)).rejects.toThrow(CheckpointValidationError);
        await expect(saver.put(cfg('t2'), cp, meta(0), cp.channel_versions)).rejects.toThrow(message);
        await expect(saver.putWrites(cfg('t', 'fine'), [['x', value]], 'task')).rejects.toThrow(/write 'x' of task task/);
      }
      expect((await store.verify()).checked).toBe(1);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('a value nested 200,000 deep is refused with a CheckpointValidationError, nothing written', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      let deepArray: unknown = 1;
      let deepObject: unknown = 1;
      for (let i = 0; i < 200_000; i++) {
        deepArray = [deepArray];
        deepObject = { d: deepObject };
      }
      for (const deep of [deepArray, deepObject, new Map([['k', deepObject]])]) {
        const cp = checkpointWith({ deep });
        await expect(saver.put(cfg('t'), cp, meta(0), cp.channel_versions)).rejects.toThrow(/channel 'deep'.* is nested deeper than 1000 levels/);
        await expect(saver.putWrites(cfg('t', 'x'), [['deep', deep]], 'task')).rejects.toThrow(CheckpointValidationError);
      }
      expect((await store.verify()).checked).toBe(0);
      // Deep but within the store's limit is kept.
      let ok: unknown = 'leaf';
      for (let i = 0; i < 900; i++) ok = [ok];
      const cp = checkpointWith({ ok });
      const config = await saver.put(cfg('t'), cp, meta(0), cp.channel_versions);
      expect((await saver.getTuple(config))?.checkpoint.channel_values.ok).toEqual(ok);
    } finally {
      await store.close();
    }
  });
});

describe('refusals say what is wrong and what to do', () => {
  const saver = () => new SessionCheckpointSaver(new CheckpointStore(new MemoryAdapter()));

  it('each value refusal ends with a hint for that kind of value', async () => {
    const cases: [unknown, RegExp][] = [
      [NaN, /is NaN, .*; replace it first \(e\.g\. by null or a string\)$/],
      [-Infinity, /is -Infinity, .*; replace it first \(e\.g\. by null or a string\)$/],
      [7n, /is a BigInt, .*; convert it first \(e\.g\. to a string\)$/],
      [new Date('x'), /is an invalid Date, .*; store a valid Date or null instead$/],
    ];
    for (const [value, message] of cases) {
      const cp = checkpointWith({ v: value });
      const error = await saver().put(cfg('t'), cp, meta(0), cp.channel_versions).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointValidationError);
      expect((error as Error).message).toMatch(message);
      if (typeof value !== 'bigint') expect((error as Error).message).not.toMatch(/BigInt/);
    }
  });

  it('config errors name the field and where it goes', async () => {
    const s = saver();
    const cp = checkpointWith({ a: 1 });
    await expect(s.put({ configurable: {} }, cp, meta(0), {})).rejects.toThrow('Missing "thread_id" in config.configurable: pass { configurable: { thread_id: "..." } }');
    await expect(s.put({ configurable: { thread_id: 5 } }, cp, meta(0), {})).rejects.toThrow(/"thread_id" in config\.configurable must be a non-empty string \(got a number\)/);
    await expect(s.put({ configurable: { thread_id: '' } }, cp, meta(0), {})).rejects.toThrow(/"thread_id" in config\.configurable must be a non-empty string \(got an empty string\)/);
    await expect(s.getTuple({ configurable: { thread_id: 't', checkpoint_ns: 3 } })).rejects.toThrow(/"checkpoint_ns" in config\.configurable must be a string \(got a number\)/);
    await expect(s.putWrites(cfg('t'), [['a', 1]], 'task')).rejects.toThrow(/Missing "checkpoint_id" in config\.configurable: pass the config that put returned/);
    await expect(s.put(cfg('t'), { ...cp, id: undefined as never }, meta(0), {})).rejects.toThrow(/Missing "id" in the checkpoint/);
    const listing = s.list(cfg('t'), { before: { configurable: { checkpoint_id: 9 } } }).next();
    await expect(listing).rejects.toThrow(/"checkpoint_id" in options\.before\.configurable must be a string \(got a number\)/);
    await expect(s.deleteThread(undefined as never)).rejects.toThrow(/deleteThread needs a thread id/);
  });

  it('the constructor refuses what is not a store and says what to pass', async () => {
    const store = new CheckpointStore(new MemoryAdapter());
    const wrong: [unknown, RegExp][] = [
      ['agent.db', /got a string.*new SessionCheckpointSaver\(await openSqliteStore\(path\)\)/],
      [Promise.resolve(store), /got a Promise.*await it/],
      [new MemoryAdapter(), /got a storage adapter.*new SessionCheckpointSaver\(new CheckpointStore\(adapter\)\)/],
      [undefined, /got undefined/],
      [{ create: () => undefined }, /got an object that is not a CheckpointStore/],
    ];
    for (const [arg, message] of wrong) {
      expect(() => new SessionCheckpointSaver(arg as never)).toThrow(CheckpointValidationError);
      expect(() => new SessionCheckpointSaver(arg as never)).toThrow(message);
    }
    // A store from another copy of core (not instanceof this one) is taken by its shape.
    const foreign = Object.create(null) as Record<string, unknown>;
    for (const key of ['create', 'prepare', 'findBySourceRef', 'findBySourceRefs', 'listBySourceRefPrefix', 'transaction', 'deleteSession', 'close']) {
      const method = (store as unknown as Record<string, (...a: unknown[]) => unknown>)[key];
      foreign[key] = (...a: unknown[]) => method?.apply(store, a);
    }
    foreign.adapter = store.adapter;
    foreign.limits = store.limits;
    const s = new SessionCheckpointSaver(foreign as never);
    const cp = checkpointWith({ a: 1 });
    const config = await s.put(cfg('t'), cp, meta(0), cp.channel_versions);
    expect((await s.getTuple(config))?.checkpoint.channel_values).toEqual({ a: 1 });
  });
});
