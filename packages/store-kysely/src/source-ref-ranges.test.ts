import { CheckpointStore, MemoryAdapter, type SourceRefRangeQuery } from '@session-checkpoint/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storeTargets } from './test-support/store-targets.js';

/*
 * A generated differential test of `listBySourceRefRanges` (several ranges, each from an offset,
 * in one statement): random refs, kinds and lists of range queries, the store's answer over the
 * Kysely adapter's member compared with the plain path, the store over a memory adapter (which
 * has no such member, so the store finds each range's start by `sourceRefAt` and reads the range
 * after it). Refs mix ASCII, accented letters, a character above U+FFFF and U+10FFFF, so each
 * range's order must be code point order (not UTF-16 order, not a linguistic collation); the
 * adapter orders the UNION ALL's rows itself. On SQLite the adapter reads the ranges in turn with
 * its precompiled statements (decision 0051): a start off by one there fails this at once (checked).
 */

const UNITS = ['a', 'b', '/', 'é', '\u{1F600}', '\u{10FFFF}', 'z'];
const FIRST = ['a', '\u{1F600}'];
const refArb = fc.tuple(fc.constantFrom(...FIRST), fc.array(fc.constantFrom(...UNITS), { maxLength: 3 })).map(([first, rest]) => first + rest.join(''));
const prefixArb = fc.oneof({ arbitrary: fc.constantFrom(...FIRST), weight: 3 }, { arbitrary: fc.tuple(fc.constantFrom(...FIRST), fc.constantFrom(...UNITS)).map(([a, b]) => a + b), weight: 1 });
const sometimes = <T>(arb: fc.Arbitrary<T>, absent: number) => fc.oneof({ arbitrary: fc.constant(undefined), weight: absent }, { arbitrary: arb, weight: 1 });
const rangeArb = fc.record({
  prefix: prefixArb,
  offset: sometimes(fc.integer({ min: 0, max: 10 }), 1),
  limit: fc.integer({ min: 1, max: 6 }),
  descending: fc.boolean(),
  after: sometimes(refArb, 3),
  before: sometimes(refArb, 3),
  kind: sometimes(fc.constantFrom('k.a', 'k.b'), 2),
});
const caseArb = fc.record({
  rows: fc.uniqueArray(fc.record({ ref: refArb, kind: fc.constantFrom('k.a', 'k.b') }), { selector: (r) => r.ref, minLength: 12, maxLength: 40 }),
  calls: fc.array(fc.array(rangeArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
});

const targets = storeTargets('ranges');

/** What a range read answered, comparable across stores: each row's ref, kind and payload. */
const shown = (lists: { sourceRef: string | null; kind: string; payload: unknown }[][]) => lists.map((rows) => rows.map((r) => [r.sourceRef, r.kind, r.payload]));

describe.each(targets)('listBySourceRefRanges on $name', (target) => {
  it.skipIf(!target.available)('reads what sourceRefAt and a range read after it read, for random lists of ranges', async () => {
    let rowsFound = 0;
    let deep = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ rows, calls }) => {
        const store = await target.open();
        const reference = new CheckpointStore(new MemoryAdapter());
        try {
          expect(typeof store.adapter.listBySourceRefRanges).toBe('function');
          expect(reference.adapter.listBySourceRefRanges).toBeUndefined();
          for (const { ref, kind } of rows) {
            for (const s of [store, reference]) await s.create({ namespace: 'app', sessionId: 's', kind, payload: { ref }, sourceRef: ref });
          }
          await store.create({ namespace: 'other', sessionId: 's', payload: {}, sourceRef: rows[0]?.ref ?? 'a' });
          for (const call of calls) {
            const queries: SourceRefRangeQuery[] = call.map((q) => ({
              namespace: 'app',
              prefix: q.prefix,
              limit: q.limit,
              descending: q.descending,
              ...(q.offset === undefined ? {} : { offset: q.offset }),
              ...(q.after === undefined ? {} : { after: q.after }),
              ...(q.before === undefined ? {} : { before: q.before }),
              ...(q.kind === undefined ? {} : { kind: q.kind }),
            }));
            const expected = shown(await reference.listBySourceRefRanges(queries));
            expect(shown(await store.listBySourceRefRanges(queries)), JSON.stringify(queries)).toEqual(expected);
            expected.forEach((list, k) => {
              rowsFound += list.length;
              if (list.length > 1 && (queries[k]?.offset ?? 0) > 0) deep++;
            });
          }
        } finally {
          await store.close();
          await reference.close();
        }
      }),
      { numRuns: Number(process.env.SC_SOAK === '1' ? (process.env.SC_SOAK_RUNS ?? 300) : 25), seed: Number(process.env.SC_ORACLE_SEED ?? 48) },
    );
    // The cases read rows, several of them from deep in a range, not only past its end.
    expect(rowsFound).toBeGreaterThan(100);
    expect(deep).toBeGreaterThan(20);
  });

  it.skipIf(!target.available)('reads a list longer than one statement takes (SQLite: 500 terms) in parts, each range as the plain path reads it', async () => {
    const store = await target.open();
    const reference = new CheckpointStore(new MemoryAdapter());
    try {
      for (let i = 0; i < 30; i++) {
        for (const s of [store, reference]) await s.create({ namespace: 'app', sessionId: 's', kind: i % 2 === 0 ? 'k.a' : 'k.b', payload: { i }, sourceRef: `p/${String(i).padStart(2, '0')}` });
      }
      // 601 ranges with limits from 1 to 601 and offsets from 0 to 29.
      const queries: SourceRefRangeQuery[] = Array.from({ length: 601 }, (_, k) => ({ namespace: 'app', prefix: 'p/', limit: k + 1, offset: k % 30, descending: k % 3 === 0 }));
      const lists = await store.listBySourceRefRanges(queries);
      expect(lists).toHaveLength(601);
      expect(shown(lists)).toEqual(shown(await reference.listBySourceRefRanges(queries)));
    } finally {
      await store.close();
      await reference.close();
    }
  });
});

