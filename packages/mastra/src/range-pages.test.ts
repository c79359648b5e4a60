import fc from 'fast-check';
import { join } from 'node:path';
import type { SourceRefPrefixQuery } from '@session-checkpoint/core';
import { rawRange } from '@session-checkpoint/core/toolkit';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { KINDS, mastraRuns } from './rows/index.js';
import { RANGE_PAGE, wholeRange } from './rows/range-pages.js';
import { runRef } from './rows/refs.js';
import { backends, RUNTIME_OK, tempDir } from './test-support/backends.js';

/*
 * The page loop every whole-range read of the package shares (run, thread and OM record listings,
 * a run's snapshots, a thread's bytes, the domains' prefix reads): generated ranges (rows of two
 * kinds in the prefix and next to it) read with pages of 1 to 4 rows, ascending and descending,
 * of one kind or all, verified or raw, with and without a limit, compared with one read of the
 * whole range. Fails if the loop stops at a full page, skips or repeats the row at a page's
 * boundary, or drops the kind. Then `mastraRuns` over more run records than the one 100,000-row
 * read it made before (SQLite; a few seconds): every run is listed.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

const suffix = fc.string({ minLength: 0, maxLength: 3, unit: fc.constantFrom('a', 'b', '/', 'z') });
const rowArb = fc.record({ inside: fc.boolean(), suffix, kind: fc.constantFrom('ka', 'kb') });

describe.skipIf(!RUNTIME_OK).each(list.filter((b) => b.available))('rangePages on $name', (backend) => {
  it('reads a range whole, page by page, as one read of it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(rowArb, { maxLength: 14, selector: (r) => `${r.inside}${r.suffix}` }),
        fc.record({ page: fc.integer({ min: 1, max: 4 }), limit: fc.option(fc.integer({ min: 1, max: 16 }), { nil: undefined }), descending: fc.boolean(), kind: fc.option(fc.constantFrom('ka', 'kb'), { nil: undefined }), raw: fc.boolean() }),
        async (rows, ask) => {
          const store = await backend.open(backend.target());
          try {
            // Inside the prefix "w/", and next to it ("w" then a character before or after "/").
            for (const r of rows) await store.create({ namespace: 'pages', sessionId: 's', kind: r.kind, payload: { r: r.suffix }, sourceRef: r.inside ? `w/${r.suffix}` : `w${r.suffix === '' ? '.' : r.suffix.replace('/', '0')}x` });
            let reads = 0;
            const read = (q: SourceRefPrefixQuery) => {
              reads++;
              expect(q.limit).toBeLessThanOrEqual(ask.page);
              return ask.raw ? rawRange(store, q) : store.listBySourceRefPrefix(q);
            };
            const range = { namespace: 'pages', prefix: 'w/', descending: ask.descending, ...(ask.kind === undefined ? {} : { kind: ask.kind }) };
            const whole = await (ask.raw ? rawRange(store, { ...range, limit: 1000 }) : store.listBySourceRefPrefix({ ...range, limit: 1000 }));
            const expected = whole.slice(0, ask.limit ?? whole.length);
            const got = await wholeRange(read, range, { page: ask.page, ...(ask.limit === undefined ? {} : { limit: ask.limit }) });
            expect(got.map((r) => r.sourceRef)).toEqual(expected.map((r) => r.sourceRef));
            // A page per `page` rows, and one more only when the last one was full.
            expect(reads).toBeLessThanOrEqual(Math.floor(got.length / ask.page) + 1);
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: backend.name === 'postgres' ? 25 : 60 },
    );
  });
});

describe.skipIf(!RUNTIME_OK)('mastraRuns over more than 100,000 runs', () => {
  it('lists every run record (the loop reads them in pages of RANGE_PAGE)', async () => {
    const tmp = tempDir();
    const store = await openSqliteStore(join(tmp.dir, 'runs.db'));
    try {
      const total = 100_001;
      await store.transaction(async (tx) => {
        for (let k = 0; k < total; k += RANGE_PAGE) {
          const rows = [];
          for (let i = k; i < Math.min(k + RANGE_PAGE, total); i++) {
            const run = { workflowName: 'wf', runId: `r${i}`, createdAt: new Date(1e12 + i).toISOString(), status: 'success' };
            rows.push(tx.prepare({ namespace: 'mastra', sessionId: `wf-${i}`, kind: KINDS.run, name: 'wf', payload: run, sourceRef: runRef('wf', run.runId) }));
          }
          await tx.insertPreparedMany(rows);
        }
      });
      const runs = await mastraRuns(store);
      expect(runs.length).toBe(total);
      expect(new Set(runs.map((r) => r.run_id)).size).toBe(total);
      // Newest first.
      expect(runs[0]?.run_id).toBe(`r${total - 1}`);
      expect(runs[total - 1]?.run_id).toBe('r0');
    } finally {
      await store.close();
      tmp.remove();
    }
  }, 600_000);
});
