import { CheckpointStore, isCheckpointIntegrityError } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresAdapter } from '../index.js';
import { dropSchema, ident, PG_URL, testPool, uniqueSchema } from '../test-support/postgres.js';

/*
 * A PostgreSQL `bigint` id beyond 2^53 - 1 cannot travel as a JavaScript number (9007199254740993
 * reads back as 9007199254740992). Such a row, written by someone else, fails closed on every
 * read, and the error names the stored id exactly, as the server holds it.
 */
describe.skipIf(!PG_URL)('PostgreSQL ids beyond 2^53 - 1', () => {
  const pool = testPool(2);
  const schema = uniqueSchema('sc_bigid');
  afterAll(async () => {
    await dropSchema(pool, schema);
    await pool.end();
  });

  it('a row with id 9007199254740993 fails closed on list and verify, naming that id exactly', async () => {
    const store = new CheckpointStore(await openPostgresAdapter(PG_URL!, { schema }));
    try {
      const row = await store.create({ namespace: 'app', sessionId: 's', payload: { a: 1 } });
      await pool.query(`update ${ident(schema)}.checkpoints set id = 9007199254740993 where id = $1`, [row.id]);
      const error = await store.list({ namespace: 'app' }).catch((e: unknown) => e);
      expect(isCheckpointIntegrityError(error)).toBe(true);
      expect(String(error)).toMatch(/id 9007199254740993 is outside 1 to 9007199254740991/u);
      const report = await store.verify();
      expect([report.checked, report.ok]).toEqual([1, 0]);
      expect(report.failures[0]?.reason).toMatch(/^id 9007199254740993 is outside/u);
    } finally {
      await store.close();
    }
  }, 600_000);
});
