import { describe, expect, it } from 'vitest';
import { MemoryAdapter } from '../memory/memory-adapter.js';
import { sha256Hex } from '../sha256.js';
import type { CheckpointRow } from '../types.js';
import { CheckpointStore } from './checkpoint-store.js';
import { writtenPair } from './prepare.js';
import { VerifiedPayloads } from './verified-payloads.js';
import { rowFailure } from './verify-row.js';

const readLimits = { maxPayloadBytes: Number.MAX_SAFE_INTEGER, maxDepth: Number.MAX_SAFE_INTEGER };

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
}

/** Passes a pair twice: the memo keeps a text from its second passing on. */
function keep(memo: VerifiedPayloads, sha: string, text: string): void {
  memo.remember(sha, text);
  memo.remember(sha, text);
}

describe('VerifiedPayloads', () => {
  it('keeps a text from its second passing on, not its first', () => {
    const memo = new VerifiedPayloads(100);
    memo.remember('h1', '{"a":1}');
    expect(memo.knows('h1', '{"a":1}')).toBe(false);
    expect(memo.size).toBe(0);
    memo.remember('h1', '{"a":1}');
    expect(memo.knows('h1', '{"a":1}')).toBe(true);
    expect(memo.size).toBe(7);
  });

  it('keeps a text passing again within 8192 other first passings, and forgets one seen once long before', () => {
    const memo = new VerifiedPayloads(1_000_000);
    memo.remember('first', 'x');
    memo.remember('second', 'x');
    for (let i = 0; i < 8192; i++) memo.remember(`h${i}`, 'y');
    memo.remember('second', 'x');
    expect(memo.knows('second', 'x')).toBe(true);
    for (let i = 8192; i < 16384; i++) memo.remember(`h${i}`, 'y');
    memo.remember('first', 'x');
    expect(memo.knows('first', 'x')).toBe(false);
    memo.remember('h16383', 'y');
    expect(memo.knows('h16383', 'y')).toBe(true);
  });

  it('knows exactly the pairs it kept: same hash, same text', () => {
    const memo = new VerifiedPayloads(100);
    keep(memo, 'h1', '{"a":1}');
    expect(memo.knows('h1', '{"a":1}')).toBe(true);
    expect(memo.knows('h1', '{"a":2}')).toBe(false);
    expect(memo.knows('h2', '{"a":1}')).toBe(false);
    expect(memo.size).toBe(7);
  });

  it('drops the least recently used texts past its budget, and never keeps one larger than half the budget', () => {
    const memo = new VerifiedPayloads(10);
    keep(memo, 'a', 'aaaa');
    keep(memo, 'b', 'bbbb');
    expect(memo.knows('a', 'aaaa')).toBe(true); // a is now the most recently used
    keep(memo, 'c', 'cccc');
    expect(memo.knows('b', 'bbbb')).toBe(false);
    expect(memo.knows('a', 'aaaa')).toBe(true);
    expect(memo.knows('c', 'cccc')).toBe(true);
    expect(memo.size).toBe(8);
    keep(memo, 'd', 'd'.repeat(6));
    expect(memo.knows('d', 'd'.repeat(6))).toBe(false);
    expect(memo.size).toBe(8);
  });
});

describe('VerifiedPayloads.written', () => {
  it('keeps a written pair at once, within half the budget, and answers only that text under that hash', () => {
    const memo = new VerifiedPayloads(20);
    memo.written('h1', '{"a":1}');
    expect(memo.knows('h1', '{"a":1}')).toBe(true);
    expect(memo.knows('h1', '{"a":2}')).toBe(false);
    expect(memo.knows('h2', '{"a":1}')).toBe(false);
    memo.written('h3', 'x'.repeat(11));
    expect(memo.knows('h3', 'x'.repeat(11))).toBe(false);
    expect(memo.size).toBe(7);
  });
});

describe('VerifiedPayloads.forget', () => {
  it('drops a kept text and a hash seen once, and nothing else', () => {
    const memo = new VerifiedPayloads(100);
    memo.written('h1', '{"a":1}');
    memo.written('h2', '{"b":2}');
    memo.remember('h3', '{"c":3}');
    memo.forget('h1');
    memo.forget('h3');
    memo.forget('absent');
    expect(memo.knows('h1', '{"a":1}')).toBe(false);
    expect(memo.knows('h2', '{"b":2}')).toBe(true);
    expect(memo.size).toBe(7);
    // h3 was seen once: after forget, its next passing is a first one again, not kept.
    memo.remember('h3', '{"c":3}');
    expect(memo.knows('h3', '{"c":3}')).toBe(false);
  });
});

describe('writtenPair', () => {
  const input = { namespace: 'app', sessionId: 's', payload: { b: 1, a: [true, null] } };

  it('gives the pair prepare computed, while the prepared row still holds exactly it', () => {
    const store = new CheckpointStore(new MemoryAdapter());
    const prepared = store.prepare(input);
    expect(writtenPair(prepared)).toEqual({ json: '{"a":[true,null],"b":1}', sha256: sha256Hex('{"a":[true,null],"b":1}') });
    // Frozen, so code that reaches it through getOwnPropertySymbols cannot make a false pair.
    expect(Object.isFrozen(writtenPair(prepared))).toBe(true);
    expect(Object.keys(prepared)).not.toContain('json');
    expect(writtenPair({ ...prepared })).toBeUndefined();
    const altered = store.prepare(input);
    altered.payloadJson = '{"a":[true, null],"b":1}';
    expect(writtenPair(altered)).toBeUndefined();
    const rehashed = store.prepare(input);
    rehashed.payloadSha256 = sha256Hex('{}');
    expect(writtenPair(rehashed)).toBeUndefined();
  });

  it('a caller\'s altered pair is never taken as verified: its row fails on the first read', async () => {
    const store = new CheckpointStore(new MemoryAdapter());
    const prepared = store.prepare({ ...input, sourceRef: 'x' });
    prepared.payloadJson = '{"a":[true, null],"b":1}';
    prepared.payloadSha256 = sha256Hex(prepared.payloadJson);
    const record = await store.insertPrepared(prepared);
    expect(await failure(store.get(record.id, { namespace: 'app' }))).toMatch(/failed payload integrity verification/);
  });
});

describe('rowFailure with a memo', () => {
  const row = (payloadJson: string, payloadSha256 = sha256Hex(payloadJson)): CheckpointRow => ({
    id: 1,
    namespace: 'app',
    sessionId: 's',
    kind: 'checkpoint',
    name: 'n',
    payloadJson,
    payloadSha256,
    createdAt: '2026-01-01T00:00:00Z',
    sourceRef: null,
  });

  it('keeps a row that passed twice, and only one that passed', () => {
    const memo = new VerifiedPayloads(1000);
    expect(rowFailure(row('{"a":1}'), readLimits, undefined, memo)).toBeUndefined();
    expect(memo.knows(sha256Hex('{"a":1}'), '{"a":1}')).toBe(false);
    expect(rowFailure(row('{"a":1}'), readLimits, undefined, memo)).toBeUndefined();
    expect(memo.knows(sha256Hex('{"a":1}'), '{"a":1}')).toBe(true);
    for (let i = 0; i < 2; i++) {
      expect(rowFailure(row('{"a": 2}'), readLimits, undefined, memo)).toBe('payload is not canonical');
      expect(rowFailure(row('{"a":3}', sha256Hex('{"a":4}')), readLimits, undefined, memo)).toBe('payload hash mismatch');
    }
    expect(memo.size).toBe(7);
  });

  it('passes a kept pair without hashing it again (the pair below would fail a fresh check)', () => {
    // Only reachable if a pair got in without passing; it shows the memo is what decides a hit.
    const memo = new VerifiedPayloads(1000);
    keep(memo, '0'.repeat(64), '{"a": 1}');
    expect(rowFailure(row('{"a": 1}', '0'.repeat(64)), readLimits, undefined, memo)).toBeUndefined();
    expect(rowFailure(row('{"a": 1}', '0'.repeat(64)), readLimits)).toBe('payload hash mismatch');
  });

  it('still checks the other columns of a kept pair', () => {
    const memo = new VerifiedPayloads(1000);
    for (let i = 0; i < 2; i++) expect(rowFailure(row('{"a":1}'), readLimits, undefined, memo)).toBeUndefined();
    expect(memo.knows(sha256Hex('{"a":1}'), '{"a":1}')).toBe(true);
    expect(rowFailure({ ...row('{"a":1}'), createdAt: 'yesterday' }, readLimits, undefined, memo)).toBe('created_at is not a normalised UTC timestamp');
  });
});

describe('CheckpointStore re-reads', () => {
  for (const verifiedTextCache of [undefined, 0]) {
    it(`refuses a row tampered after it was read and verified (verifiedTextCache: ${verifiedTextCache ?? 'default'})`, async () => {
      const adapter = new MemoryAdapter();
      const store = new CheckpointStore(adapter, verifiedTextCache === undefined ? {} : { verifiedTextCache });
      const cp = await store.create({ namespace: 'app', sessionId: 's', payload: { step: 1, note: 'kept' }, sourceRef: 'r' });
      const stored = (await adapter.findBySourceRef('app', 'r')) as CheckpointRow;
      const original = stored.payloadJson;
      // Kept at the write: tampered before any read, it fails all the same.
      stored.payloadJson = original.replace('kept', 'kepT');
      expect(await failure(store.get(cp.id, { namespace: 'app' }))).toMatch(/failed payload integrity verification/);
      stored.payloadJson = original;
      for (let i = 0; i < 2; i++) expect((await store.get(cp.id, { namespace: 'app' })).payload).toEqual({ step: 1, note: 'kept' });
      // One byte of text, the hash left as it was.
      stored.payloadJson = original.replace('kept', 'kepT');
      expect(await failure(store.get(cp.id, { namespace: 'app' }))).toMatch(/failed payload integrity verification/);
      expect(await failure(store.findBySourceRefs('app', ['r']))).toMatch(/failed payload integrity verification/);
      // The hash changed, the text as it was.
      stored.payloadJson = original;
      const sha = stored.payloadSha256;
      stored.payloadSha256 = sha256Hex('{}');
      expect(await failure(store.listBySourceRefPrefix({ namespace: 'app', prefix: 'r', limit: 5 }))).toMatch(/failed payload integrity verification/);
      stored.payloadSha256 = sha;
      expect((await store.get(cp.id, { namespace: 'app' })).payloadJson).toBe(original);
      // Inside a transaction too.
      stored.payloadJson = original.replace('kept', 'kepT');
      expect(await failure(store.transaction((tx) => tx.get(cp.id, { namespace: 'app' })))).toMatch(/failed payload integrity verification/);
    });
  }

  it('refuses a negative or fractional verifiedTextCache', () => {
    expect(() => new CheckpointStore(new MemoryAdapter(), { verifiedTextCache: -1 })).toThrow(/verifiedTextCache/);
    expect(() => new CheckpointStore(new MemoryAdapter(), { verifiedTextCache: 1.5 })).toThrow(/verifiedTextCache/);
  });
});
