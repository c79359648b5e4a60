import { CheckpointStore, MemoryAdapter, type CheckpointAdapter, type SourceRefPositionQuery } from '@session-checkpoint/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storeTargets } from './test-support/store-targets.js';

/*
 * A generated differential test of `sourceRefAt` (a page's start found in the index instead of by
 * reading the rows before it): random refs, kinds and range queries, each answer compared with the
 * reference, the ref at `offset` of the memory adapter's range read (selectSourceRefPrefix over a
 * scan). Refs mix ASCII, accented letters, a character above U+FFFF and U+10FFFF, so code point
 * order (not UTF-16 order, not a linguistic collation) is what both must follow.
 */

const UNITS = ['a', 'b', '/', 'é', '\u{1F600}', '\u{10FFFF}', 'z'];
// Refs and prefixes start with one of two units, so that most ranges hold rows to count.
const FIRST = ['a', '\u{1F600}'];
const refArb = fc.tuple(fc.constantFrom(...FIRST), fc.array(fc.constantFrom(...UNITS), { maxLength: 3 })).map(([first, rest]) => first + rest.join(''));
const prefixArb = fc.oneof({ arbitrary: fc.constantFrom(...FIRST), weight: 3 }, { arbitrary: fc.tuple(fc.constantFrom(...FIRST), fc.constantFrom(...UNITS)).map(([a, b]) => a + b), weight: 1 });
/** `arb`'s values one time in `1 + absent`, else `undefined`. */
const sometimes = <T>(arb: fc.Arbitrary<T>, absent: number) => fc.oneof({ arbitrary: fc.constant(undefined), weight: absent }, { arbitrary: arb, weight: 1 });
const caseArb = fc.record({
  rows: fc.uniqueArray(fc.record({ ref: refArb, kind: fc.constantFrom('k.a', 'k.b') }), { selector: (r) => r.ref, minLength: 12, maxLength: 40 }),
  queries: fc.array(
    fc.record({
      prefix: prefixArb,
      offset: fc.integer({ min: 0, max: 8 }),
      descending: fc.boolean(),
      after: sometimes(refArb, 3),
      before: sometimes(refArb, 3),
      kind: sometimes(fc.constantFrom('k.a', 'k.b'), 2),
    }),
    { minLength: 1, maxLength: 8 },
  ),
});

const targets = storeTargets('position');

describe.each(targets)('sourceRefAt on $name', (target) => {
  it.skipIf(!target.available)('gives the ref the memory adapter range read has at that offset, for random ranges', async () => {
    let found = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ rows, queries }) => {
        const store = await target.open();
        const reference = new CheckpointStore(new MemoryAdapter());
        try {
          for (const { ref, kind } of rows) {
            for (const s of [store, reference]) await s.create({ namespace: 'app', sessionId: 's', kind, payload: {}, sourceRef: ref });
          }
          await store.create({ namespace: 'other', sessionId: 's', payload: {}, sourceRef: rows[0]?.ref ?? 'a' });
          for (const q of queries) {
            const query: SourceRefPositionQuery = { namespace: 'app', prefix: q.prefix, offset: q.offset, descending: q.descending, ...(q.after === undefined ? {} : { after: q.after }), ...(q.before === undefined ? {} : { before: q.before }), ...(q.kind === undefined ? {} : { kind: q.kind }) };
            const at = (adapter: CheckpointAdapter) => (adapter.sourceRefAt as NonNullable<CheckpointAdapter['sourceRefAt']>).call(adapter, query);
            const expected = await at(reference.adapter);
            expect(await at(store.adapter), JSON.stringify(query)).toBe(expected);
            if (expected !== undefined) found++;
          }
        } finally {
          await store.close();
          await reference.close();
        }
      }),
      { numRuns: Number(process.env.SC_SOAK === '1' ? (process.env.SC_SOAK_RUNS ?? 300) : 25), seed: Number(process.env.SC_ORACLE_SEED ?? 35) },
    );
    // The cases reach into ranges, not only past their ends.
    expect(found).toBeGreaterThan(20);
  });
});
