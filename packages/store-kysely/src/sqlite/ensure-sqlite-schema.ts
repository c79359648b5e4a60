import { StoreNotFoundError } from '@session-checkpoint/core';
import { sql, type Kysely } from 'kysely';
import { applyMigrations, ENSURE_SESSION_INDEX, LATEST_SCHEMA_VERSION } from '../migrations.js';
import type { MigrationReport } from '../migration-report.js';
import { immediateTransaction } from './immediate-transaction.js';
import { inspectSqliteFile, type SqliteStoreState } from './validate-sqlite-file.js';

/**
 * Validates a SQLite store and brings it to the latest schema, creating it when empty. Validation
 * comes first, with plain reads, so an incompatible file is never written. Creation and
 * migration then run in one `BEGIN IMMEDIATE` transaction that re-checks the file: many
 * processes opening one new store at once serialise on the write lock, and exactly one creates it.
 *
 * On a read-only connection nothing is written: a store without our session index (one the
 * Python tool created) is read without it.
 *
 * @param location Path shown in messages.
 * @throws StoreSchemaError for an incompatible file; StoreNotFoundError when `create` is false and
 *   the file holds no store.
 */
export async function ensureSqliteSchema(db: Kysely<any>, location: string, create: boolean, readOnly = false): Promise<MigrationReport> {
  const seen = await inspectSqliteFile(db, location);
  const current: MigrationReport = { created: false, from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION };
  if (!needsWrite(seen)) return current;
  refuseMissing(seen, location, create);
  // Only v1 exists, so a store that passed inspection reads as it is; the index is an optimisation.
  if (readOnly && seen.kind === 'store') return current;
  return db.connection().execute((conn) =>
    immediateTransaction(
      (statement) => sql.raw(statement).execute(conn),
      async () => {
        const state = await inspectSqliteFile(conn, location);
        refuseMissing(state, location, create);
        const from = state.kind === 'empty' ? 0 : state.version;
        const to = await applyMigrations(conn, { flavor: 'sqlite', schema: 'main' }, from);
        if (state.kind === 'store' && !state.hasSessionIndex) await sql.raw(ENSURE_SESSION_INDEX).execute(conn);
        return { created: state.kind === 'empty', from, to };
      },
    ),
  );
}

function needsWrite(state: SqliteStoreState): boolean {
  return state.kind === 'empty' || state.version < LATEST_SCHEMA_VERSION || !state.hasSessionIndex;
}

function refuseMissing(state: SqliteStoreState, location: string, create: boolean): void {
  if (state.kind === 'empty' && !create) {
    throw new StoreNotFoundError(`Checkpoint store not found: ${location} holds no store (open it with create to initialise it)`);
  }
}
