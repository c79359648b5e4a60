import type { CheckpointStore, NewCheckpointRow } from '@session-checkpoint/core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from './index.js';
import { tempDir } from './test-support/temp-dir.js';

/*
 * The generated differential test of the required rows' condition of insertIfPresent and
 * insertManyIfPresent on SQLite (conditional-insert-sql.ts, requiredRowsCondition: one EXISTS per
 * distinct ref instead of the count of rows matching any of them): random stored rows (some in
 * another namespace, some deleted again), then random preconditions (refs stored or not, the
 * SHA-256 right, wrong or not given, refs repeated) with one or two new rows, against the port's
 * rule worked out in JavaScript from the rows read back: every required ref held in the row's
 * namespace by a row with that SHA-256 where given, refs distinct, the new refs free. The answer
 * and every row must match.
 */

const dir = tempDir('sc-required-rows-');
afterAll(() => dir.remove());

type Present = { sourceRef: string; payloadSha256?: string };
const REFS = ['a', 'b', 'c', 'd', 'e'];

const stored = fc.array(fc.record({ ref: fc.constantFrom(...REFS), namespace: fc.constantFrom('app', 'other'), n: fc.integer({ min: 0, max: 3 }), deleted: fc.boolean() }), { maxLength: 8 });
const call = fc.record({
  present: fc.array(fc.record({ ref: fc.constantFrom(...REFS), sha: fc.constantFrom('right', 'wrong', 'none') }), { maxLength: 3 }),
  fresh: fc.array(fc.constantFrom('x', 'y', 'a'), { minLength: 1, maxLength: 2 }),
  many: fc.boolean(),
});

async function rowsOf(store: CheckpointStore): Promise<{ namespace: string; sourceRef: string | null; payloadSha256: string }[]> {
  const out = [];
  for (const namespace of ['app', 'other']) for (const r of await store.list({ namespace })) out.push({ namespace, sourceRef: r.sourceRef, payloadSha256: r.payloadSha256 });
  return out.sort((p, q) => `${p.namespace}/${p.sourceRef}`.localeCompare(`${q.namespace}/${q.sourceRef}`));
}

describe('the required rows of a conditional insert on SQLite (generated, against the port\'s rule)', () => {
  it('inserts exactly when every required row is there, refs distinct and the new refs free', async () => {
    let inserted = 0;
    let refused = 0;
    let file = 0;
    await fc.assert(
      fc.asyncProperty(stored, fc.array(call, { minLength: 1, maxLength: 6 }), async (rows, calls) => {
        const store = await openSqliteStore(dir.file(`r-${file++}.sqlite`));
        try {
          for (const r of rows) {
            if ((await store.findBySourceRef(r.namespace, r.ref)) !== undefined) continue;
            const made = await store.create({ namespace: r.namespace, sessionId: 's', payload: { n: r.n }, sourceRef: r.ref });
            if (r.deleted) await store.adapter.deleteRow(made.id, r.namespace);
          }
          for (const [k, c] of calls.entries()) {
            const before = await rowsOf(store);
            const inApp = new Map(before.filter((r) => r.namespace === 'app').map((r) => [r.sourceRef, r.payloadSha256]));
            const present: Present[] = c.present.map((p) => ({ sourceRef: p.ref, ...(p.sha === 'none' ? {} : { payloadSha256: p.sha === 'right' ? (inApp.get(p.ref) ?? 'f'.repeat(64)) : '0'.repeat(64) }) }));
            const fresh = c.many ? [...new Set(c.fresh)] : [c.fresh[0] as string];
            const newRows: NewCheckpointRow[] = fresh.map((ref) => {
              const { payloadBytes: _, ...made } = store.prepare({ namespace: 'app', sessionId: 's', payload: { k, ref }, sourceRef: `${ref}${k}` === 'a0' ? 'a' : `${ref}${k}` });
              return made;
            });
            const expected =
              new Set(present.map((p) => p.sourceRef)).size === present.length &&
              present.every((p) => inApp.has(p.sourceRef) && (p.payloadSha256 === undefined || inApp.get(p.sourceRef) === p.payloadSha256)) &&
              newRows.every((r) => !inApp.has(r.sourceRef));
            const adapter = store.adapter;
            const answer = c.many
              ? await adapter.insertManyIfPresent?.(newRows, { present })
              : await adapter.insertIfPresent?.(newRows[0] as NewCheckpointRow, { present });
            expect(answer !== undefined).toBe(expected);
            const after = await rowsOf(store);
            const added = expected ? newRows.map((r) => ({ namespace: 'app', sourceRef: r.sourceRef, payloadSha256: r.payloadSha256 })) : [];
            expect(after).toEqual([...before, ...added].sort((p, q) => `${p.namespace}/${p.sourceRef}`.localeCompare(`${q.namespace}/${q.sourceRef}`)));
            if (expected) inserted++;
            else refused++;
          }
        } finally {
          await store.close();
        }
      }),
      { numRuns: 150 },
    );
    expect(inserted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
  });
});
