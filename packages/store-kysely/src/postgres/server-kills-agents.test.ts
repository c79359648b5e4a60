import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../index.js';
import { checkTurns, startAgents, unretryable, until } from '../test-support/agent-load.js';
import { dropSchema, PG_URL, testPool, uniqueSchema } from '../test-support/postgres.js';

/*
 * The server ends the connections of a running deployment (pg_terminate_backend, as an
 * administrator or a failover does) while 32 agents write through one store of this process:
 * every failed call fails with `retryable: true`, no acknowledged turn is lost, no turn is left
 * half-written, and the same store (its pool) carries on without being reopened. The test
 * terminates only the backends of its own store, found by an application_name made for it.
 */

describe.skipIf(!PG_URL)('32 agents while the server terminates their connections', () => {
  const pool = testPool(2);
  const schema = uniqueSchema('sc_agents_killed');

  afterAll(async () => {
    await dropSchema(pool, schema);
    await pool.end();
  });

  /** Terminates every backend of `application`; resolves with how many there were. */
  async function terminate(application: string): Promise<number> {
    const { rowCount } = await pool.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [application]);
    return rowCount ?? 0;
  }

  it('fail retryably, lose nothing acknowledged, leave no turn half-written, and recover', async () => {
    const application = `sc-agents-${randomBytes(4).toString('hex')}`;
    const url = new URL(PG_URL!);
    url.searchParams.set('application_name', application);
    const store = await openPostgresStore(url.href, { schema, poolSize: 8 });
    try {
      const load = startAgents(store, 32);
      let killed = 0;
      for (let round = 1; round <= 3; round++) {
        await until(() => load.acked() >= 40 * round);
        killed += await terminate(application);
      }
      load.markPhase();
      // The pool recovers: after the last termination, every agent gets turns through again.
      let report;
      try {
        await until(async () => {
          const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where application_name = $1', [application]);
          return rows[0]!.n > 0 && load.acked() >= 40 * 3 + 64;
        });
      } finally {
        report = await load.stop();
      }
      expect(killed).toBeGreaterThan(0);
      expect(report.errors.length, 'terminations were felt by running agents').toBeGreaterThan(0);
      expect(unretryable(report.errors)).toEqual([]);
      expect(await checkTurns(store, report, 32)).toEqual([]);
      // And a call now simply works.
      await store.create({ namespace: 'agents', sessionId: 'after', payload: { ok: true } });
    } finally {
      await store.close();
    }
  }, 600_000);
});
