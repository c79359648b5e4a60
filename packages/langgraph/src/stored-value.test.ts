import { JsonPlusSerializer } from '@langchain/langgraph-checkpoint';
import { describe, expect, it } from 'vitest';
import { cloneJson, isThenable, loadValueNow, type StoredValue } from './stored-value.js';

describe('cloneJson', () => {
  it('copies parsed JSON deeply, exactly as a stringify/parse round trip does', () => {
    const text = '{"a":[1,2.5,{"b":null,"c":"x"}],"d":{"e":true,"f":[]},"__proto__":{"polluted":1}}';
    const value = JSON.parse(text) as Record<string, unknown>;
    const copy = cloneJson(value) as Record<string, unknown>;
    expect(copy).toEqual(JSON.parse(text));
    expect(JSON.stringify(copy)).toBe(text);
    expect(copy).not.toBe(value);
    expect(copy.a).not.toBe(value.a);
    // "__proto__" stays an own property and never becomes the prototype.
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps primitives as they are', () => {
    for (const v of [null, 0, 1.5, 'x', true]) expect(cloneJson(v)).toBe(v);
  });
});

describe('loadValueNow', () => {
  const serde = new JsonPlusSerializer();

  it('returns plain JSON synchronously, a copy when the stored value is not fresh', () => {
    const stored: StoredValue = { t: 'json', j: { a: [1] } };
    const first = loadValueNow(serde, stored, true);
    expect(isThenable(first)).toBe(false);
    expect(first).toBe(stored.j);
    const again = loadValueNow(serde, stored, false);
    expect(again).toEqual(stored.j);
    expect(again).not.toBe(stored.j);
  });

  it('hands values the serializer revives to it, as a promise', async () => {
    const stored: StoredValue = { t: 'json', j: { lc: 2, type: 'constructor', id: ['Set'], method: null, args: [[1, 2]], kwargs: {} } };
    const loaded = loadValueNow(serde, stored);
    expect(isThenable(loaded)).toBe(true);
    expect(await loaded).toEqual(new Set([1, 2]));
  });
});
