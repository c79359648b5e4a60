import { DummyDriver, Kysely, SqliteAdapter, SqliteDialect, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';
import type { MigrationReport } from '../migration-report.js';
import type { CheckpointDatabase } from '../schema.js';
import { migrateSqliteStore } from './ensure-sqlite-schema.js';
import type { SqliteDatabaseLike } from './sqlite-database.js';

/*
 * The SQLite front door's Kysely, kept in this module so that it is loaded (with `import()`) only
 * when Kysely is really needed: to create or migrate a schema, and to build the per-call queries
 * (prune, delete by ids). Opening a current store and the hot queries run without it.
 */

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
