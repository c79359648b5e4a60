import { DummyDriver, Kysely, SqliteAdapter, SqliteDialect, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import { applyMigrations, CREATE_SESSION_INDEX, LATEST_SCHEMA_VERSION, type MigrationReport } from '../migrations.js';
import { rawQuery } from '../raw-query.js';
import type { CheckpointDatabase } from '../schema.js';
import { immediateTransaction } from './sqlite-connection.js';
import type { SqliteDatabaseLike } from './sqlite-options.js';
import { inspectSqliteFile, kyselyReader, refuseMissing, sqliteStoreNeedsWrite } from './sqlite-schema.js';

/*
 * What the SQLite side needs Kysely for, kept in this module so that it is loaded (with
 * `import()`) only when Kysely is really needed: to create or migrate a schema, and to build the
 * per-call queries (prune, delete by ids). Opening a current store and the hot queries run without it.
 */

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
 * Creates or migrates the store in one `BEGIN IMMEDIATE` transaction on one Kysely connection,
 * re-inspecting the file under the write lock (another process may have created it meanwhile).
 */
async function migrateSqliteStore(db: Kysely<any>, location: string, create: boolean): Promise<MigrationReport> {
  return db.connection().execute((conn) =>
    immediateTransaction(
      (statement) => conn.executeQuery(rawQuery(statement)),
      async () => {
        const state = await inspectSqliteFile(kyselyReader(conn), location);
        refuseMissing(state, location, create);
        const from = state.kind === 'empty' ? 0 : state.version;
        const to = await applyMigrations(conn, { flavor: 'sqlite', schema: 'main' }, from);
        // The session index for stores created before it existed (the Python tool's).
        if (state.kind === 'store' && !state.hasSessionIndex) await conn.executeQuery(rawQuery(CREATE_SESSION_INDEX));
        return { created: state.kind === 'empty', from, to };
      },
    ),
  );
}

/**
 * Creates or migrates the store in `database` (see `migrateSqliteStore`) through a Kysely
 * instance over the same connection. The instance is destroyed afterwards without closing the
 * connection, which stays the adapter's.
 */
export async function migrateSqliteDatabase(database: SqliteDatabaseLike, location: string, create: boolean): Promise<MigrationReport> {
  // Kysely's driver closes its database on destroy; this one must outlive it.
  const borrowed = { prepare: (sql: string) => database.prepare(sql), close: () => undefined };
  const db = new Kysely<CheckpointDatabase>({ dialect: new SqliteDialect({ database: borrowed }) });
  try {
    return await migrateSqliteStore(db, location, create);
  } finally {
    await db.destroy();
  }
}

/**
 * A Kysely instance that only compiles SQLite SQL: its driver refuses to run anything. It is the
 * same compiler `SqliteDialect` uses, so its SQL is what a Kysely over better-sqlite3 would send.
 */
export function sqliteCompiler(): Kysely<CheckpointDatabase> {
  return new Kysely<CheckpointDatabase>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}
