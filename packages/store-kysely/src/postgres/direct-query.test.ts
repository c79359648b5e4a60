import type { PostgresPoolClient } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { PG_URL, testPool } from '../test-support/postgres.js';
import { borrowed, openPool, queryDirect } from './postgres-pool.js';

/*
 * The store's own pool runs its statements by pg's callback form (queryDirect), where a lent pool's
 * clients keep the promise form: the same answers, the same error mapping, and named statements
 * still named on that path.
 */

const limits = { max: 2, connectTimeoutMs: 10_000, acquireTimeoutMs: 10_000, statementTimeoutMs: 0, lockTimeoutMs: 0 };

const prepared = async (client: PostgresPoolClient) =>
  (await client.query<{ name: string }>("select name from pg_prepared_statements where name like 'sc\\_%'", [])).rows.map((r) => r.name);

describe.skipIf(!PG_URL)('queryDirect', () => {
  const lender = testPool(2);
  afterAll(() => lender.end());

  it('answers on a client of the store pool as the promise form does, and maps a failure the same way', async () => {
    const pool = await openPool(PG_URL!, limits, false);
    const client = await pool.connect();
    try {
      const direct = await queryDirect<{ x: number; t: string }>(client, 'select $1::int as x, $2::text as t', [7, 'seven']);
      const promised = await client.query<{ x: number; t: string }>('select $1::int as x, $2::text as t', [7, 'seven']);
      expect(direct?.rows).toEqual(promised.rows);
      expect(direct?.command).toBe('SELECT');
      const failure = async (run: () => Promise<unknown> | undefined) => {
        try {
          await run();
          return 'resolved';
        } catch (error) {
          return `${(error as { code?: string }).code} ${(error as { retryable?: boolean }).retryable === true}`;
        }
      };
      expect(await failure(() => queryDirect(client, 'select from nowhere_at_all', []))).toBe(await failure(() => client.query('select from nowhere_at_all', [])));
    } finally {
      client.release();
    }
    // A connection the server ends under a statement: marked retryable, as guardClient marks it.
    const doomed = await pool.connect();
    try {
      await queryDirect(doomed, 'select pg_terminate_backend(pg_backend_pid())', []);
      expect.unreachable();
    } catch (error) {
      expect((error as { retryable?: boolean }).retryable).toBe(true);
    } finally {
      doomed.release(true as never);
      await pool.end();
    }
  });

  it('names data statements on the store pool when asked, and only then', async () => {
    for (const named of [true, false]) {
      const pool = await openPool(PG_URL!, { ...limits, max: 1 }, named);
      const client = await pool.connect();
      try {
        await queryDirect(client, 'select $1::int + 41 as direct_named_probe', [1]);
        expect((await prepared(client)).length > 0).toBe(named);
      } finally {
        client.release();
        await pool.end();
      }
    }
  });

  it('leaves a lent pool to the promise form', async () => {
    const client = await borrowed(lender, false).connect();
    try {
      expect(queryDirect(client, 'select 1', [])).toBeUndefined();
    } finally {
      client.release();
    }
  });
});
