import { StoreNotFoundError } from '@session-checkpoint/core';
import type { Kysely } from 'kysely';
import { applyMigrations, ENSURE_SESSION_INDEX, LATEST_SCHEMA_VERSION } from '../migrations.js';
import type { MigrationReport } from '../migration-report.js';
import { rawQuery } from '../raw-query.js';
import { kyselyReader } from '../sql-reader.js';
import { immediateTransaction } from './immediate-transaction.js';
import { inspectSqliteFile, type SqliteStoreState } from './validate-sqlite-file.js';

/** What {@link ensureSqliteSchema} reports for a store that needed nothing. */
const CURRENT: MigrationReport = { created: false, from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION };

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
  const seen = await inspectSqliteFile(kyselyReader(db), location);
  return sqliteStoreNeedsWrite(seen, location, create, readOnly) ? migrateSqliteStore(db, location, create) : CURRENT;
}

/**
 * Whether a store inspected by {@link inspectSqliteFile} must be created or migrated: false for a
 * current store, and for any store on a read-only connection (only v1 exists, so a store that
 * passed inspection reads as it is; the session index is an optimisation).
 *
 * @throws StoreNotFoundError when the file holds no store and `create` is false.
 */
export function sqliteStoreNeedsWrite(seen: SqliteStoreState, location: string, create: boolean, readOnly: boolean): boolean {
  if (seen.kind === 'store' && seen.version >= LATEST_SCHEMA_VERSION && seen.hasSessionIndex) return false;
  refuseMissing(seen, location, create);
  return !(readOnly && seen.kind === 'store');
}

/**
 * Creates or migrates the store in one `BEGIN IMMEDIATE` transaction on one Kysely connection,
 * re-inspecting the file under the write lock (another process may have created it meanwhile).
 */
export async function migrateSqliteStore(db: Kysely<any>, location: string, create: boolean): Promise<MigrationReport> {
  return db.connection().execute((conn) =>
    immediateTransaction(
      (statement) => conn.executeQuery(rawQuery(statement)),
      async () => {
        const state = await inspectSqliteFile(kyselyReader(conn), location);
        refuseMissing(state, location, create);
        const from = state.kind === 'empty' ? 0 : state.version;
        const to = await applyMigrations(conn, { flavor: 'sqlite', schema: 'main' }, from);
        if (state.kind === 'store' && !state.hasSessionIndex) await conn.executeQuery(rawQuery(ENSURE_SESSION_INDEX));
        return { created: state.kind === 'empty', from, to };
      },
    ),
  );
}

function refuseMissing(state: SqliteStoreState, location: string, create: boolean): void {
  if (state.kind === 'empty' && !create) {
    throw new StoreNotFoundError(`Checkpoint store not found: ${location} holds no store (open it with create to initialise it)`);
  }
}
