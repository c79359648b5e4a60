import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../sha256.js';
import type { CheckpointRow } from '../types.js';
import { toCheckpoint } from './lazy-checkpoint.js';

const payloadJson = '{"a":[1,2.5],"big":12345678901234567890,"s":"x"}';
const row = (id: number): CheckpointRow => ({
  id,
  namespace: 'default',
  sessionId: 's',
  kind: 'manual',
  name: 'n',
  payloadJson,
  payloadSha256: sha256Hex(payloadJson),
  createdAt: '2026-08-08T07:30:00Z',
  sourceRef: null,
});

describe('toCheckpoint', () => {
  it('lists every field in interface order, payload an own enumerable read-only accessor', () => {
    const record = toCheckpoint(row(1));
    expect(Object.keys(record)).toEqual(['id', 'namespace', 'sessionId', 'kind', 'name', 'payload', 'payloadJson', 'payloadSha256', 'createdAt', 'sourceRef']);
    const descriptor = Object.getOwnPropertyDescriptor(record, 'payload');
    expect(descriptor?.enumerable).toBe(true);
    expect(descriptor?.set).toBeUndefined();
    expect(() => {
      (record as { payload: unknown }).payload = {};
    }).toThrow(TypeError);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  });

  it('parses once per record and keeps each record its own value', () => {
    const one = toCheckpoint(row(1));
    const two = toCheckpoint(row(2));
    expect(one.payload).toBe(one.payload);
    expect(one.payload).not.toBe(two.payload);
    expect(one.payload).toEqual({ a: [1, 2.5], big: 12345678901234567890, s: 'x' });
    (one.payload as Record<string, unknown>).s = 'changed';
    expect(two.payload.s).toBe('x');
    expect(one.payload.s).toBe('changed');
  });

  it('keeps the parsed payload out of keys, JSON and equality, and still parses a record frozen before its first read', () => {
    const record = toCheckpoint(row(4));
    const parsed = record.payload;
    expect(Object.getOwnPropertyNames(record)).toEqual(['id', 'namespace', 'sessionId', 'kind', 'name', 'payload', 'payloadJson', 'payloadSha256', 'createdAt', 'sourceRef']);
    expect(record).toStrictEqual(toCheckpoint(row(4)));
    expect(record.payload).toBe(parsed);
    const frozen = Object.freeze(toCheckpoint(row(5)));
    expect(frozen.payload).toEqual({ a: [1, 2.5], big: 12345678901234567890, s: 'x' });
    expect(frozen.payload).not.toBe(frozen.payload);
  });

  it('copies the parsed payload into spreads and JSON like a data property', () => {
    const record = toCheckpoint(row(3));
    const copy = { ...record };
    expect(Object.getOwnPropertyDescriptor(copy, 'payload')?.value).toBe(record.payload);
    expect(JSON.parse(JSON.stringify(record))).toEqual({ ...row(3), payload: JSON.parse(payloadJson) });
  });
});
