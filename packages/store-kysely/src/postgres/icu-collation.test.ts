import { randomBytes } from 'node:crypto';
import { CheckpointStore, MemoryAdapter, type CheckpointAdapter, type SourceRefPrefixQuery } from '@session-checkpoint/core';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../index.js';
import { ident, PG_URL, testPool } from '../test-support/postgres.js';

/*
 * The sourceRef range reads on a database whose default collation is ICU. Its `datcollate` still
 * names a libc locale (C.UTF-8 here), which the adapter once took for byte order: it then compared
 * and ordered by the ICU collation (a < B < é < z < Z) where every range read is defined in code
 * point order (B < Z < a < z < é). A generated differential test, each answer compared with the
 * memory adapter's, on a database of the test's own (dropped after). A server built without ICU
 * skips the test, saying so (with SC_PG_REQUIRED=1 it fails instead); before PostgreSQL 15 it
 * skips, since no default collation can be ICU there.
 */

const UNITS = ['a', 'B', 'é', 'Z', 'z', '/', 'E', '\u{1F600}'];
const FIRST = ['a', 'B'];
const refArb = fc.tuple(fc.constantFrom(...FIRST), fc.array(fc.constantFrom(...UNITS), { maxLength: 3 })).map(([first, rest]) => first + rest.join(''));
const prefixArb = fc.oneof({ arbitrary: fc.constantFrom(...FIRST), weight: 3 }, { arbitrary: fc.tuple(fc.constantFrom(...FIRST), fc.constantFrom(...UNITS)).map(([a, b]) => a + b), weight: 1 });
const sometimes = <T>(arb: fc.Arbitrary<T>, absent: number) => fc.oneof({ arbitrary: fc.constant(undefined), weight: absent }, { arbitrary: arb, weight: 1 });
const queryArb = fc.record({
  prefix: prefixArb,
  offset: fc.integer({ min: 0, max: 6 }),
  limit: fc.integer({ min: 1, max: 6 }),
  descending: fc.boolean(),
  after: sometimes(refArb, 3),
  before: sometimes(refArb, 3),
});
const caseArb = fc.record({
  refs: fc.uniqueArray(refArb, { minLength: 10, maxLength: 30 }),
  queries: fc.array(queryArb, { minLength: 1, maxLength: 5 }),
});

const database = `sc_icu_${process.pid}_${randomBytes(4).toString('hex')}`;

/**
 * Why this server cannot hold an ICU database, or undefined. Only probed at import; the database
 * itself is made in `beforeAll`, so a run that filters every test out leaves nothing behind.
 * Before PostgreSQL 15 a default collation cannot be ICU, so there is nothing to test (a skip,
 * also under SC_PG_REQUIRED=1).
 */
async function probe(): Promise<{ why: string; failsCi: boolean } | undefined> {
  if (!PG_URL) return { why: 'SC_PG_URL is not set', failsCi: false };
  const pool = testPool(1);
  try {
    const { rows } = await pool.query<{ version: number; icu: boolean }>(
      `select current_setting('server_version_num')::int as version, exists (select 1 from pg_collation where collprovider = 'i') as icu`,
    );
    if (rows[0]!.version < 150000) return { why: 'PostgreSQL before 15 has no ICU default collation', failsCi: false };
    if (!rows[0]!.icu) return { why: 'the server was built without ICU', failsCi: true };
    return undefined;
  } finally {
    await pool.end();
  }
}

const probed = await probe();
const required = process.env.SC_PG_REQUIRED === '1' && PG_URL !== undefined && probed?.failsCi === true;
const unavailable = probed?.why;
if (unavailable !== undefined && !required) console.warn(`ICU collation test SKIPPED: ${unavailable}`);
let created = false;

beforeAll(async () => {
  if (unavailable !== undefined) return;
  const pool = testPool(1);
  try {
    // LC_COLLATE 'C' so the libc locale the old check looked at names byte order on any server
    // (template0's own could be en_US): the test then fails on that check wherever it runs.
    await pool.query(`CREATE DATABASE ${ident(database)} LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0`);
    created = true;
  } finally {
    await pool.end();
  }
});

afterAll(async () => {
  if (!created) return;
  const pool = testPool(1);
  try {
    await pool.query(`DROP DATABASE IF EXISTS ${ident(database)} WITH (FORCE)`);
  } finally {
    await pool.end();
  }
});

/** The test server's URL with the ICU database in place of its own. */
function icuUrl(): string {
  const url = new URL(PG_URL ?? '');
  url.pathname = `/${database}`;
  return url.toString();
}

describe.skipIf(unavailable !== undefined && !required)('sourceRef ranges on an ICU database', () => {
  it('the database compares text in ICU order, not code point order (else this test shows nothing)', async () => {
    if (unavailable !== undefined) throw new Error(`SC_PG_REQUIRED=1 but ${unavailable}`);
    const pool = new pg.Pool({ connectionString: icuUrl(), max: 1 });
    try {
      const { rows } = await pool.query<{ provider: string; collate: string }>('select datlocprovider as provider, datcollate as collate from pg_database where datname = current_database()');
      expect(rows).toEqual([{ provider: 'i', collate: 'C' }]);
      const ordered = await pool.query<{ x: string }>(`select x from (values ('B'), ('a'), ('é')) as v(x) order by x`);
      expect(ordered.rows.map((r) => r.x)).toEqual(['a', 'B', 'é']);
    } finally {
      await pool.end();
    }
  });

  it('listBySourceRefPrefix, sourceRefAt and listBySourceRefRanges read in code point order, as the memory adapter does', async () => {
    if (unavailable !== undefined) throw new Error(`SC_PG_REQUIRED=1 but ${unavailable}`);
    const store = await openPostgresStore(icuUrl(), { schema: 'sc_icu', poolSize: 1 });
    const reference = new CheckpointStore(new MemoryAdapter());
    let run = 0;
    let found = 0;
    try {
      await fc.assert(
        fc.asyncProperty(caseArb, async ({ refs, queries }) => {
          const namespace = `n${run++}`;
          for (const ref of refs) for (const s of [store, reference]) await s.create({ namespace, sessionId: 's', payload: { ref }, sourceRef: ref });
          const shown = (rows: { sourceRef: string | null }[]) => rows.map((r) => r.sourceRef);
          const ranges = queries.map((q) => ({
            namespace,
            prefix: q.prefix,
            limit: q.limit,
            offset: q.offset,
            descending: q.descending,
            ...(q.after === undefined ? {} : { after: q.after }),
            ...(q.before === undefined ? {} : { before: q.before }),
          }));
          for (const { offset, ...range } of ranges) {
            const prefixQuery: SourceRefPrefixQuery = range;
            const expected = shown(await reference.listBySourceRefPrefix(prefixQuery));
            expect(shown(await store.listBySourceRefPrefix(prefixQuery)), JSON.stringify(prefixQuery)).toEqual(expected);
            found += expected.length;
            const at = (adapter: CheckpointAdapter) => (adapter.sourceRefAt as NonNullable<CheckpointAdapter['sourceRefAt']>).call(adapter, { ...range, offset });
            expect(await at(store.adapter), JSON.stringify({ ...range, offset })).toBe(await at(reference.adapter));
          }
          const expected = (await reference.listBySourceRefRanges(ranges)).map(shown);
          expect((await store.listBySourceRefRanges(ranges)).map(shown), JSON.stringify(ranges)).toEqual(expected);
        }),
        { numRuns: 20, seed: Number(process.env.SC_ORACLE_SEED ?? 54) },
      );
    } finally {
      await store.close();
      await reference.close();
    }
    // The ranges held rows to order, not only nothing.
    expect(found).toBeGreaterThan(40);
  });
});
