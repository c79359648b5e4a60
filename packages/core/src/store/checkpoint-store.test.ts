import { describe, expect, it } from 'vitest';
import { isCheckpointError, isCheckpointValidationError } from '../errors.js';
import { MemoryAdapter } from '../memory/memory-adapter.js';
import type { SourceRefPrefixQuery, SourceRefRangeQuery } from '../port/adapter.js';
import type { CheckpointRow } from '../types.js';
import { CheckpointStore } from './checkpoint-store.js';

const fixedNow = () => new Date(Date.UTC(2026, 7, 8, 7, 30, 0, 500));
const newStore = (limits = {}) => new CheckpointStore(new MemoryAdapter(), { now: fixedNow, limits });

async function failure(promise: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    expect(isCheckpointError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('CheckpointStore.prepare', () => {
  it('canonicalises, hashes and fills defaults without writing', async () => {
    const store = newStore();
    const plan = store.prepare({ sessionId: 's', payloadJson: '{"b": 1, "a": 1.0}' });
    expect(plan).toEqual({
      namespace: 'default',
      sessionId: 's',
      kind: 'manual',
      name: 'checkpoint_20260808T073000Z',
      payloadJson: '{"a":1.0,"b":1}',
      payloadSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      payloadBytes: 15,
      createdAt: '2026-08-08T07:30:00Z',
      sourceRef: null,
    });
    expect(await store.list()).toEqual([]);
  });

  it('gives the default name for an empty name, as the reference', () => {
    expect(newStore().prepare({ sessionId: 's', payload: {}, name: '' }).name).toBe('checkpoint_20260808T073000Z');
  });

  it('reports the first failure in the reference order: created_at, payload, namespace, session, kind, name, source_ref', async () => {
    const store = newStore();
    const all = { namespace: 'bad ns', sessionId: '', kind: '-k', name: 'x'.repeat(300), sourceRef: '' };
    expect(await failure(() => store.prepare({ ...all, payloadJson: '[1]', createdAt: 'never' }))).toBe('created_at must be a valid ISO-8601 timestamp');
    expect(await failure(() => store.prepare({ ...all, payloadJson: '[1]' }))).toBe('payload must be a JSON object');
    expect(await failure(() => store.prepare({ ...all, payload: {} }))).toMatch(/^namespace must match/);
    expect(await failure(() => store.prepare({ ...all, namespace: 'ok', payload: {} }))).toBe('session_id must be a non-empty string of at most 512 characters');
    expect(await failure(() => store.prepare({ ...all, namespace: 'ok', sessionId: 's', payload: {} }))).toMatch(/^kind must match/);
    expect(await failure(() => store.prepare({ ...all, namespace: 'ok', sessionId: 's', kind: 'k', payload: {} }))).toBe('name must be a non-empty string of at most 256 characters');
    expect(await failure(() => store.prepare({ ...all, namespace: 'ok', sessionId: 's', kind: 'k', name: 'n', payload: {} }))).toBe('source_ref must be a non-empty string of at most 256 characters');
  });

  it('needs exactly one of payload and payloadJson', async () => {
    const store = newStore();
    expect(await failure(() => store.prepare({ sessionId: 's' }))).toBe('give exactly one of payload or payloadJson');
    expect(await failure(() => store.prepare({ sessionId: 's', payload: {}, payloadJson: '{}' }))).toBe('give exactly one of payload or payloadJson');
  });

  it('applies per-store limits', async () => {
    const store = newStore({ maxPayloadBytes: 10 });
    expect(store.prepare({ sessionId: 's', payloadJson: '{"a":"12"}' }).payloadBytes).toBe(10);
    expect(await failure(() => store.prepare({ sessionId: 's', payloadJson: '{"a":"123"}' }))).toBe('payload exceeds the 10-byte carrier limit');
    expect(await failure(() => newStore({ maxPayloadBytes: 0 }))).toBe('maxPayloadBytes must be a positive integer');
  });

  it('accepts a Date for createdAt', () => {
    expect(newStore().prepare({ sessionId: 's', payload: {}, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, 999)) }).createdAt).toBe('2026-01-01T00:00:00Z');
  });
});

describe('CheckpointStore reads', () => {
  it('returns records with the exact text and a lazily parsed payload', async () => {
    const store = newStore();
    const cp = await store.create({ sessionId: 's', payloadJson: '{"big":12345678901234567890,"f":1.0,"__proto__":{"x":1}}' });
    const got = await store.get(cp.id);
    expect(got.payloadJson).toBe('{"__proto__":{"x":1},"big":12345678901234567890,"f":1.0}');
    expect(Object.getPrototypeOf(got.payload)).toBe(Object.prototype);
    expect(Object.keys(got.payload)).toEqual(['__proto__', 'big', 'f']);
  });

  it('validates list arguments in the reference order and caps the page', async () => {
    const store = newStore();
    expect(await failure(store.list({ limit: 1001, offset: -1 }))).toBe('offset must be a non-negative integer');
    expect(await failure(store.list({ limit: 1001 }))).toBe('limit must not exceed 1000');
    expect(await failure(newStore({ maxListLimit: 5 }).list({ limit: 6 }))).toBe('limit must not exceed 5');
    expect(await failure(store.list({ namespace: 'a/b' }))).toMatch(/^namespace must match/);
  });

  it('validates the id before the namespace, as the reference', async () => {
    expect(await failure(newStore().get(0, { namespace: 'bad ns' }))).toBe('checkpoint_id must be a positive integer');
  });

  it('needs a criterion to prune', async () => {
    expect(await failure(newStore().prune({ namespace: 'app' }))).toBe('prune needs keepLatest and/or olderThan');
  });

  it('refuses a bad keepLatest on create', async () => {
    const error = await newStore()
      .create({ sessionId: 's', payload: {} }, { keepLatest: 0 })
      .catch((e: unknown) => e);
    expect(isCheckpointValidationError(error)).toBe(true);
  });
});

describe('CheckpointStore caps on reads', () => {
  it('reads rows written under larger caps: size and depth caps apply to writes only', async () => {
    const adapter = new MemoryAdapter();
    const roomy = new CheckpointStore(adapter);
    const deep = `{"a":${'['.repeat(40)}${']'.repeat(40)},"s":"${'x'.repeat(200)}"}`;
    const cp = await roomy.create({ sessionId: 's', payloadJson: deep });
    const strict = new CheckpointStore(adapter, { limits: { maxPayloadBytes: 64, maxDepth: 8 } });
    expect((await strict.get(cp.id)).payloadJson).toBe(cp.payloadJson);
    expect((await strict.verify()).failures).toEqual([]);
    expect(await failure(() => strict.prepare({ sessionId: 's', payloadJson: deep }))).toMatch(/exceeds/);
  });
});

describe('CheckpointStore.findBySourceRefs', () => {
  /** A MemoryAdapter whose rows can be tampered with, with or without its own findBySourceRefs. */
  async function seeded(withPortMethod: boolean) {
    const adapter = new MemoryAdapter();
    if (!withPortMethod) Object.defineProperty(adapter, 'findBySourceRefs', { value: undefined });
    const store = new CheckpointStore(adapter, { now: fixedNow });
    for (const ref of ['a', 'b', 'c']) await store.create({ namespace: 'app', sessionId: 's', payload: { ref }, sourceRef: ref });
    return { adapter, store };
  }

  for (const withPortMethod of [true, false]) {
    it(`finds each ref held once and verifies every row (${withPortMethod ? 'port method' : 'one findBySourceRef per ref'})`, async () => {
      const { adapter, store } = await seeded(withPortMethod);
      const rows = await store.findBySourceRefs('app', ['c', 'a', 'zz', 'a']);
      expect(rows.map((r) => r.sourceRef).sort()).toEqual(['a', 'c']);
      expect(await store.findBySourceRefs('other', ['a'])).toEqual([]);
      const row = await adapter.findBySourceRef('app', 'c');
      if (row) row.payloadJson = '{"ref":"x"}';
      expect(await failure(store.findBySourceRefs('app', ['a', 'c']))).toMatch(/failed payload integrity verification/);
    });
  }

  it('refuses refs that are not an array of strings', async () => {
    const { store } = await seeded(true);
    expect(await failure(store.findBySourceRefs('app', [1 as unknown as string]))).toBe('sourceRefs must be an array of strings');
  });
});

describe('CheckpointStore.listBySourceRefRanges', () => {
  /**
   * A MemoryAdapter with a `listBySourceRefRanges` member (each range by its own range read, the
   * offset sliced off), whose rows can be tampered with; `lists` changes how many lists it returns.
   */
  class RangesAdapter extends MemoryAdapter {
    calls = 0;
    extraList = false;
    async listBySourceRefRanges(queries: readonly SourceRefRangeQuery[]): Promise<CheckpointRow[][]> {
      this.calls++;
      const out: CheckpointRow[][] = [];
      for (const { offset = 0, ...q } of queries) out.push((await this.listBySourceRefPrefix({ ...q, limit: q.limit + offset })).slice(offset));
      return this.extraList ? [...out, []] : out;
    }
  }
  async function seeded(adapter: MemoryAdapter) {
    const store = new CheckpointStore(adapter, { now: fixedNow });
    for (let i = 0; i < 8; i++) await store.create({ namespace: 'app', sessionId: 's', payload: { i }, sourceRef: `p/${i}` });
    for (const ref of ['c/1', 'c/2']) await store.create({ namespace: 'app', sessionId: 's', payload: { ref }, sourceRef: ref });
    return store;
  }
  const queries: SourceRefRangeQuery[] = [
    { namespace: 'app', prefix: 'p/', limit: 3, offset: 4 },
    { namespace: 'app', prefix: 'c/', limit: 1, descending: true },
    { namespace: 'app', prefix: 'p/', limit: 3, offset: 2, descending: true },
    { namespace: 'app', prefix: 'p/', limit: 3, offset: 8 },
  ];
  const expected = [['p/4', 'p/5', 'p/6'], ['c/2'], ['p/5', 'p/4', 'p/3'], []];

  it('reads each range from its offset through the adapter member, or range by range without it, and verifies every row', async () => {
    const withMember = new RangesAdapter();
    const without = new MemoryAdapter();
    for (const adapter of [withMember, without]) {
      const store = await seeded(adapter);
      expect((await store.listBySourceRefRanges(queries)).map((rows) => rows.map((r) => r.sourceRef))).toEqual(expected);
      expect(await store.listBySourceRefRanges([])).toEqual([]);
      const row = await adapter.findBySourceRef('app', 'p/5');
      if (row) row.payloadJson = '{"i":9}';
      expect(await failure(store.listBySourceRefRanges(queries.slice(0, 1)))).toMatch(/failed payload integrity verification/);
    }
    expect(withMember.calls).toBe(2);
  });

  it('sends a kind filter to the member only where the adapter declares sourceRefKind', async () => {
    /** A member that drops `kind` (an adapter that never declared it serves kinds). */
    class KindBlindRanges extends RangesAdapter {
      override async listBySourceRefRanges(queries: readonly SourceRefRangeQuery[]): Promise<CheckpointRow[][]> {
        return super.listBySourceRefRanges(queries.map(({ kind: _kind, ...q }) => q));
      }
    }
    const adapter = new KindBlindRanges();
    expect(adapter.capabilities.sourceRefKind).not.toBe(true);
    const store = new CheckpointStore(adapter, { now: fixedNow });
    for (let i = 0; i < 6; i++) await store.create({ namespace: 'app', sessionId: 's', kind: i % 2 === 0 ? 'k.a' : 'k.b', payload: { i }, sourceRef: `p/${i}` });
    const lists = await store.listBySourceRefRanges([{ namespace: 'app', prefix: 'p/', limit: 3, kind: 'k.a' }]);
    expect(lists.map((rows) => rows.map((r) => r.sourceRef))).toEqual([['p/0', 'p/2', 'p/4']]);
    expect(adapter.calls).toBe(0);
    // Without a kind the member is used.
    await store.listBySourceRefRanges([{ namespace: 'app', prefix: 'p/', limit: 3 }]);
    expect(adapter.calls).toBe(1);
  });

  it('refuses an adapter answer with another number of lists, and bad queries', async () => {
    const adapter = new RangesAdapter();
    const store = await seeded(adapter);
    adapter.extraList = true;
    expect(await failure(store.listBySourceRefRanges(queries))).toMatch(/returned 5 lists for 4 queries/);
    expect(await failure(store.listBySourceRefRanges([{ namespace: 'app', prefix: 'p/', limit: 1, offset: -1 }]))).toBe('offset must be a non-negative safe integer');
    expect(await failure(store.listBySourceRefRanges([{ namespace: 'app', prefix: '', limit: 1 }]))).toBe('prefix must be a non-empty string');
  });
});

describe('listBySourceRefPrefix with a kind', () => {
  /** An adapter with its own range read that knows nothing of `kind` (as adapters written before it). */
  class KindBlindAdapter extends MemoryAdapter {
    calls = 0;
    override async listBySourceRefPrefix(query: SourceRefPrefixQuery): Promise<CheckpointRow[]> {
      this.calls++;
      expect(query.kind).toBeUndefined();
      return super.listBySourceRefPrefix(query);
    }
  }

  it('on an adapter that ignores kind, the store filters page by page until limit rows of the kind', async () => {
    const adapter = new KindBlindAdapter();
    const store = new CheckpointStore(adapter);
    // Three rows of another kind before every row wanted: each page of `limit` rows holds at most one.
    for (let i = 0; i < 12; i++) await store.create({ namespace: 'app', sessionId: 's', kind: i % 4 === 3 ? 'want' : 'other', payload: { i }, sourceRef: `r/${String(i).padStart(2, '0')}` });
    const asc = await store.listBySourceRefPrefix({ namespace: 'app', prefix: 'r/', kind: 'want', limit: 2 });
    expect(asc.map((r) => r.sourceRef)).toEqual(['r/03', 'r/07']);
    expect(adapter.calls).toBeGreaterThan(1);
    const desc = await store.listBySourceRefPrefix({ namespace: 'app', prefix: 'r/', kind: 'want', limit: 5, descending: true });
    expect(desc.map((r) => r.sourceRef)).toEqual(['r/11', 'r/07', 'r/03']);
    const none = await store.listBySourceRefPrefix({ namespace: 'app', prefix: 'r/', kind: 'absent', limit: 3 });
    expect(none).toEqual([]);
  });

  it('refuses a kind that is not a valid kind', async () => {
    const store = new CheckpointStore(new MemoryAdapter());
    await expect(store.listBySourceRefPrefix({ namespace: 'app', prefix: 'r/', kind: 'bad kind', limit: 3 })).rejects.toSatisfy(isCheckpointValidationError);
  });
});

describe('insertPreparedIfPresent', () => {
  it('refuses, with a CheckpointError naming the capability, an adapter without conditional inserts, and writes nothing', async () => {
    const store = new CheckpointStore(new MemoryAdapter());
    const prepared = store.prepare({ namespace: 'app', sessionId: 's', payload: { a: 1 }, sourceRef: 'x' });
    const error = await store.insertPreparedIfPresent(prepared, { present: [] }).catch((e: unknown) => e);
    expect(isCheckpointError(error)).toBe(true);
    expect((error as Error).message).toContain('conditionalInserts');
    expect(await store.list({ namespace: 'app' })).toEqual([]);
  });
});
