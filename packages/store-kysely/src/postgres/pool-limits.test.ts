import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCheckpointValidationError } from '@session-checkpoint/core';
import { isRetryablePostgresError, openPostgresStore, PostgresPoolTimeoutError } from '../index.js';
import { until } from '../test-support/agent-load.js';
import { dropSchema, ident, PG_URL, testPool, uniqueSchema } from '../test-support/postgres.js';

/*
 * The limits of the store's own pool against the real server: no more than `poolSize`
 * connections; a call that finds them all busy waits `acquireTimeoutMs` and then fails with a
 * retryable PostgresPoolTimeoutError (never a hang), and the pool serves again once one is free;
 * `lockTimeoutMs` and `statementTimeoutMs` reach the server and end a write stuck behind a lock.
 */

describe.skipIf(!PG_URL)('PostgreSQL pool limits', () => {
  const pool = testPool(2);
  const schema = uniqueSchema('sc_pool_limits');

  beforeAll(async () => {
    await (await openPostgresStore(PG_URL!, { schema })).close();
  });
  afterAll(async () => {
    await dropSchema(pool, schema);
    await pool.end();
  });

  const named = () => {
    const application = `sc-pool-${randomBytes(4).toString('hex')}`;
    const url = new URL(PG_URL!);
    url.searchParams.set('application_name', application);
    return { application, url: url.href };
  };
  const backends = async (application: string) =>
    (await pool.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where application_name = $1', [application])).rows[0]!.n;

  it('opens at most poolSize connections, and a saturated pool fails after acquireTimeoutMs with a retryable error', async () => {
    const { application, url } = named();
    const store = await openPostgresStore(url, { schema, poolSize: 2, acquireTimeoutMs: 300 });
    try {
      let open!: () => void;
      const held = new Promise<void>((resolve) => (open = resolve));
      let inside = 0;
      const hold = () =>
        store.transaction(async (tx) => {
          await tx.create({ namespace: 'pool', sessionId: 'held', payload: { n: 1 } });
          inside++;
          await held;
        });
      const holders = [hold(), hold()];
      await until(() => inside === 2);
      expect(await backends(application)).toBe(2);
      const error = await store.create({ namespace: 'pool', sessionId: 'waits', payload: { n: 2 } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PostgresPoolTimeoutError);
      expect(error).toMatchObject({ retryable: true, poolSize: 2, waitedMs: 300, code: '53000', severity: 'ERROR' });
      expect(isRetryablePostgresError(error)).toBe(true);
      expect(await backends(application)).toBe(2);
      // A waiter is served as soon as a connection comes back.
      const waiting = store.create({ namespace: 'pool', sessionId: 'waits', payload: { n: 3 } });
      open();
      await Promise.all(holders);
      expect((await waiting).payload).toEqual({ n: 3 });
      expect(await backends(application)).toBeLessThanOrEqual(2);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('lockTimeoutMs ends a write waiting for a lock with retryable 55P03; statementTimeoutMs with 57014', async () => {
    // The stores open before the lock is taken, and the statement limit is generous: opening runs
    // catalog queries under that limit too, which a loaded machine can slow past a short one.
    // Only the write stuck behind the lock should meet it.
    const lockStore = await openPostgresStore(PG_URL!, { schema, lockTimeoutMs: 200 });
    const statementStore = await openPostgresStore(PG_URL!, { schema, statementTimeoutMs: 3000 }).catch(async (error: unknown) => {
      await lockStore.close();
      throw error;
    });
    const holder = await pool.connect();
    try {
      await holder.query('begin');
      await holder.query(`lock table ${ident(schema)}.checkpoints in access exclusive mode`);
      const lockError = await lockStore.create({ namespace: 'pool', sessionId: 'locked', payload: { n: 1 } }).catch((e: unknown) => e);
      expect(lockError).toMatchObject({ code: '55P03', retryable: true });
      const statementError = await statementStore.create({ namespace: 'pool', sessionId: 'locked', payload: { n: 2 } }).catch((e: unknown) => e);
      expect(statementError).toMatchObject({ code: '57014' });
      // A cancelled statement is not marked: repeating it as it is meets the same limit.
      expect(isRetryablePostgresError(statementError)).toBe(false);
      await holder.query('rollback');
      // Both stores serve again once the lock is gone.
      await lockStore.create({ namespace: 'pool', sessionId: 'locked', payload: { n: 3 } });
      await statementStore.create({ namespace: 'pool', sessionId: 'locked', payload: { n: 4 } });
    } finally {
      await holder.query('rollback').catch(() => undefined);
      holder.release();
      await lockStore.close();
      await statementStore.close();
    }
  }, 60_000);

  it('rejects limits that are not positive integers', async () => {
    for (const options of [{ poolSize: 0 }, { acquireTimeoutMs: -1 }, { statementTimeoutMs: 1.5 }, { lockTimeoutMs: -5 }]) {
      const error = await openPostgresStore(PG_URL!, { schema, ...options }).catch((e: unknown) => e);
      expect(isCheckpointValidationError(error), JSON.stringify(options)).toBe(true);
    }
  });
});
