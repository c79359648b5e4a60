import type { NewCheckpointRow } from '@session-checkpoint/core';
import { isAbortedTransactionError, Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KyselyAdapter, openPostgresAdapter } from '../index.js';
import type { CheckpointDatabase } from '../schema.js';
import { dropSchema, ident, PG_URL, testPool, uniqueSchema } from '../test-support/postgres.js';

/*
 * The front door runs its statements on pg directly (pg-connection.ts), where a KyselyAdapter over
 * a caller's Kysely instance runs them through Kysely's executor and transaction. Both paths get
 * the same transactions here, on the real server: what they answer and what is left committed
 * must agree, including the case Kysely's transaction guards against (an error swallowed inside
 * the transaction, so PostgreSQL answers COMMIT with ROLLBACK).
 */

const row = (sourceRef: string): NewCheckpointRow => ({
  namespace: 'ns',
  sessionId: 's',
  kind: 'checkpoint',
  name: 'step',
  payloadJson: '{}',
  payloadSha256: 'a'.repeat(64),
  createdAt: '2026-12-06T10:00:00Z',
  sourceRef,
});

async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    return `resolved ${JSON.stringify(await promise)}`;
  } catch (error) {
    if (isAbortedTransactionError(error)) return 'aborted';
    return `rejected ${(error as { code?: string }).code ?? (error as Error).message}`;
  }
}

describe.skipIf(!PG_URL)('PostgreSQL transactions on pg directly and through Kysely', () => {
  let pool: pg.Pool;
  const schema = uniqueSchema('sc_pgconn');
  const paths: { name: string; adapter: KyselyAdapter }[] = [];

  beforeAll(async () => {
    pool = testPool(4);
    const direct = await openPostgresAdapter(PG_URL!, { schema, poolSize: 2 });
    const { default: pgModule } = await import('pg');
    const db = new Kysely<CheckpointDatabase>({ dialect: new PostgresDialect({ pool: new pgModule.Pool({ connectionString: PG_URL, max: 2 }) }) });
    paths.push({ name: 'pg directly', adapter: direct }, { name: 'Kysely executor', adapter: new KyselyAdapter(db, { schema, ownsDatabase: true }) });
  });
  afterAll(async () => {
    for (const { adapter } of paths) await adapter.close();
    await dropSchema(pool, schema);
    await pool.end();
  });

  const committed = async (sourceRef: string) =>
    Number((await pool.query(`select count(*) as n from ${ident(schema)}.checkpoints where source_ref = $1`, [sourceRef])).rows[0].n);

  it('agree on a commit, a failed body, a swallowed statement error, and a call after each', async () => {
    const seen: Record<string, string[]> = {};
    for (const { name, adapter } of paths) {
      const tag = name.replaceAll(' ', '-');
      const results: string[] = [];
      // A commit: the row is there, and was not visible outside the transaction before it.
      results.push(
        await outcome(
          adapter.transaction(async (tx) => {
            await tx.insert(row(`${tag}/committed`));
            return [await committed(`${tag}/committed`), (await adapter.findBySourceRef('ns', `${tag}/committed`)) === undefined];
          }),
        ),
      );
      results.push(`committed ${await committed(`${tag}/committed`)}`);
      // A body that throws: rolled back, and the body's own error reaches the caller.
      results.push(
        await outcome(
          adapter.transaction(async (tx) => {
            await tx.insert(row(`${tag}/thrown`));
            throw new Error('body failed');
          }),
        ),
      );
      results.push(`committed ${await committed(`${tag}/thrown`)}`);
      // A statement the server refuses (an id no bigint holds), its error swallowed: PostgreSQL
      // answers COMMIT with ROLLBACK, which must not pass for success.
      results.push(
        await outcome(
          adapter.transaction(async (tx) => {
            await tx.insert(row(`${tag}/swallowed`));
            await tx.getRow(2 ** 70, 'ns').catch(() => undefined);
            return 'done';
          }),
        ),
      );
      results.push(`committed ${await committed(`${tag}/swallowed`)}`);
      // The connections went back usable (or were replaced): the next calls work.
      results.push(await outcome(adapter.transaction(async (tx) => (await tx.findBySourceRef('ns', `${tag}/committed`))?.sourceRef?.replace(tag, ''))));
      results.push(await outcome(adapter.getRow(2 ** 70, 'ns')));
      results.push(await outcome(adapter.findBySourceRefs('ns', [`${tag}/committed`, `${tag}/thrown`]).then((rows) => rows.length)));
      seen[name] = results;
    }
    expect(seen['pg directly']).toEqual([
      'resolved [0,true]',
      'committed 1',
      'rejected body failed',
      'committed 0',
      'aborted',
      'committed 0',
      'resolved "/committed"',
      'rejected 22P02',
      'resolved 1',
    ]);
    expect(seen['Kysely executor']).toEqual(seen['pg directly']);
  });

  it('refuse a statement of a transaction that has ended, and write nothing (a leaked tx used after its commit or rollback)', async () => {
    type Tx = Parameters<Parameters<KyselyAdapter['transaction']>[0]>[0];
    const seen: Record<string, string[]> = {};
    for (const { name, adapter } of paths) {
      const tag = `${name.replaceAll(' ', '-')}/ended`;
      let committedTx: Tx | undefined;
      await adapter.transaction(async (tx) => {
        committedTx = tx;
        await tx.insert(row(`${tag}/inside`));
      });
      let rolledBackTx: Tx | undefined;
      await outcome(
        adapter.transaction(async (tx) => {
          rolledBackTx = tx;
          throw new Error('body failed');
        }),
      );
      const after = [await outcome(committedTx!.insert(row(`${tag}/after-commit`))), await outcome(rolledBackTx!.insert(row(`${tag}/after-rollback`)))];
      seen[name] = [...after.map((a) => a.split(' ')[0] as string), `committed ${await committed(`${tag}/inside`)} ${await committed(`${tag}/after-commit`)} ${await committed(`${tag}/after-rollback`)}`];
    }
    // The old direct path ran both statements in autocommit: 'resolved', 'resolved', 'committed 1 1 1'.
    expect(seen['pg directly']).toEqual(['rejected', 'rejected', 'committed 1 0 0']);
    expect(seen['Kysely executor']).toEqual(seen['pg directly']);
  });
});
