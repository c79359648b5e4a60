import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../index.js';
import { rawQuery } from '../raw-query.js';
import { tempDir } from '../test-support/temp-dir.js';
import { SqliteStatementRunner } from './sqlite-connection.js';

/*
 * The differential test of SqliteStatementRunner's plans (how each SQL text runs, kept per text):
 * random sequences of statements (single-row inserts with and without `returning "id"`, their
 * conditional forms, checkpoint-row reads, other reads, deletes with RETURNING, and more distinct
 * texts than the runner keeps) run through one long-lived runner, and each one through a new
 * runner (nothing kept) on a second copy of the same database. Every answer, error and the rows
 * at the end must be the same.
 */

const COLUMNS = '"namespace", "session_id", "kind", "name", "payload_json", "payload_sha256", "created_at", "source_ref"';
const ROW_SELECT = 'select "id", "namespace", "session_id" as "sessionId", "kind", "name", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "created_at" as "createdAt", "source_ref" as "sourceRef" from "checkpoints"';

type Op = { sql: string; parameters: unknown[] };

/** Statements whose texts differ in a late part only (a literal), so that a plan kept under a coarser key than the whole text runs the wrong one. */
const op = fc.oneof(
  fc.record({ ref: fc.integer({ min: 0, max: 12 }), n: fc.integer({ min: 0, max: 80 }), returning: fc.boolean() }).map(({ ref, n, returning }): Op => ({
    sql: `insert into "checkpoints" (${COLUMNS}) select ?, ?, ?, ?, ?, ?, ?, ? where ${n} >= 0 and not exists (select 1 from "checkpoints" where "source_ref" = ?) on conflict do nothing${returning ? ' returning "id"' : ''}`,
    parameters: ['app', 's', 'k', `n${n}`, `{"n":${n}}`, 'x'.repeat(64), '2026-01-01T00:00:00.000Z', `r/${ref}`, `r/${ref}`],
  })),
  fc.record({ ref: fc.integer({ min: 0, max: 12 }), need: fc.integer({ min: 0, max: 12 }) }).map(({ ref, need }): Op => ({
    sql: `insert into "checkpoints" (${COLUMNS}) select ?, ?, ?, ?, ?, ?, ?, ? where not exists (select 1 from "checkpoints" where "source_ref" = ?) and (select count(*) from "checkpoints" where "source_ref" = ?) = 1 on conflict do nothing returning "id"`,
    parameters: ['app', 's', 'k', 'c', '{}', 'y'.repeat(64), '2026-01-01T00:00:00.000Z', `r/${ref}`, `r/${ref}`, `r/${need}`],
  })),
  fc.integer({ min: 0, max: 80 }).map((n): Op => ({ sql: `${ROW_SELECT} where "id" > ${n} order by "id"`, parameters: [] })),
  fc.integer({ min: 0, max: 80 }).map((n): Op => ({ sql: `select "id", "source_ref" as "sourceRef" from "checkpoints" where "id" > ${n} order by "id"`, parameters: [] })),
  fc.integer({ min: 0, max: 12 }).map((ref): Op => ({ sql: `delete from "checkpoints" where "source_ref" = ? returning "id"`, parameters: [`r/${ref}`] })),
  fc.integer({ min: 0, max: 12 }).map((ref): Op => ({ sql: `delete from "checkpoints" where "source_ref" = 'r/${ref}'`, parameters: [] })),
  fc.constant<Op>({ sql: 'select nothing from "checkpoints"', parameters: [] }),
);

function outcome(run: () => Promise<unknown[]>): Promise<unknown> {
  return run().then(
    (rows) => ({ rows }),
    (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
  );
}

describe('SqliteStatementRunner plans (generated, against a new runner per statement)', () => {
  const dirs: ReturnType<typeof tempDir>[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) dir.remove();
  });

  it('answers every statement as a runner that keeps nothing does', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 120 }), async (ops) => {
        const dir = tempDir('sc-plans-');
        dirs.push(dir);
        for (const name of ['kept.sqlite', 'plain.sqlite']) await (await openSqliteStore(dir.file(name))).close();
        const kept = new Database(dir.file('kept.sqlite'));
        const plain = new Database(dir.file('plain.sqlite'));
        try {
          const runner = new SqliteStatementRunner(kept);
          for (const { sql, parameters } of ops) {
            const ours = await outcome(() => runner.rows(rawQuery(sql, parameters)));
            const theirs = await outcome(() => new SqliteStatementRunner(plain).rows(rawQuery(sql, parameters)));
            expect(ours).toStrictEqual(theirs);
          }
          const all = `${ROW_SELECT} order by "id"`;
          expect(kept.prepare(all).all()).toStrictEqual(plain.prepare(all).all());
          runs++;
        } finally {
          kept.close();
          plain.close();
        }
      }),
      { numRuns: 60 },
    );
    expect(runs).toBeGreaterThanOrEqual(60);
  });

  it('answers each of more texts than it keeps, before and after its caches are full', async () => {
    const dir = tempDir('sc-plans-bound-');
    dirs.push(dir);
    await (await openSqliteStore(dir.file('b.sqlite'))).close();
    const db = new Database(dir.file('b.sqlite'));
    try {
      const runner = new SqliteStatementRunner(db);
      for (let n = 0; n < 300; n++) expect(await runner.rows(rawQuery(`select ${n} as "n"`))).toEqual([{ n }]);
      // Again, after the cache is full: every text still gives its own answer.
      for (let n = 0; n < 300; n++) expect(await runner.rows(rawQuery(`select ${n} as "n"`))).toEqual([{ n }]);
    } finally {
      db.close();
    }
  });
});
