import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../index.js';
import { startChild } from '../test-support/children.js';
import { dropSchema, ident, PG_URL, testPool, uniqueSchema } from '../test-support/postgres.js';

/*
 * The server terminates a library user's connection (pg_terminate_backend, as an administrator or
 * a failover would) while it is checked out: inside store.transaction, or while a create waits
 * for a lock. The process must not crash (pg emits 'error' on a checked-out client, which nobody
 * listened to: "Unhandled 'error' event"); the store call rejects with one error shaped like a
 * server error (`severity`, SQLSTATE `code`), which the CLI reports as DatabaseError. Real child
 * processes and a real termination from another connection.
 */

describe.skipIf(!PG_URL)('a PostgreSQL connection terminated by the server', () => {
  const pool = testPool(2);
  const schema = uniqueSchema('sc_killed');

  beforeAll(async () => {
    await (await openPostgresStore(PG_URL!, { schema })).close();
  });
  afterAll(async () => {
    await dropSchema(pool, schema);
    await pool.end();
  });

  /** Terminates the backends of `application` and waits until they are gone. */
  async function terminate(application: string): Promise<number> {
    const { rows } = await pool.query<{ pid: number }>('select pg_terminate_backend(pid) as done, pid from pg_stat_activity where application_name = $1', [application]);
    for (;;) {
      const left = await pool.query('select 1 from pg_stat_activity where application_name = $1', [application]);
      if (left.rowCount === 0) return rows.length;
    }
  }

  /** Waits until a backend of `application` waits for a lock. */
  async function waitingForLock(application: string): Promise<void> {
    for (;;) {
      const { rowCount } = await pool.query("select 1 from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'", [application]);
      if (rowCount) return;
    }
  }

  function expectOneTypedError(result: { code: number | null; stdout: string; stderr: string }): void {
    expect(result.stderr).not.toMatch(/Unhandled 'error' event/u);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('ready');
    expect(lines).toHaveLength(2);
    const outcome = JSON.parse(lines[1]!) as { rejected: boolean; severity?: unknown; code?: unknown; message?: string };
    expect(outcome.rejected).toBe(true);
    expect(typeof outcome.severity, JSON.stringify(outcome)).toBe('string');
    expect(outcome.code).toMatch(/^(57P01|08006)$/u);
    expect(outcome.message).toMatch(/terminat/iu);
  }

  it('inside store.transaction: one typed error, no crash, nothing committed', async () => {
    const application = `sc-killed-${randomBytes(4).toString('hex')}`;
    const child = startChild('pg-killed.mjs', ['transaction', schema, application]);
    await child.waitForLine('ready');
    expect(await terminate(application)).toBe(1);
    child.process.kill('SIGUSR2');
    expectOneTypedError(await child.done);
    const { rows } = await pool.query(`select count(*)::int as n from ${ident(schema)}.checkpoints`);
    expect(rows[0].n).toBe(0);
  }, 600_000);

  it('while a create waits for a lock: one typed error, no crash, nothing written', async () => {
    const application = `sc-killed-${randomBytes(4).toString('hex')}`;
    const holder = await pool.connect();
    try {
      await holder.query('begin');
      await holder.query(`lock table ${ident(schema)}.checkpoints in access exclusive mode`);
      const child = startChild('pg-killed.mjs', ['lock', schema, application]);
      await child.waitForLine('ready');
      await waitingForLock(application);
      expect(await terminate(application)).toBe(1);
      await holder.query('rollback');
      expectOneTypedError(await child.done);
    } finally {
      holder.release();
    }
    const { rows } = await pool.query(`select count(*)::int as n from ${ident(schema)}.checkpoints`);
    expect(rows[0].n).toBe(0);
  }, 600_000);
});
