import type { Kysely } from 'kysely';
import type { MigrationReport } from './migrations.js';
import { checkSchemaName } from './postgres/postgres-schema-name.js';
import { detectFlavor, type SqlFlavor } from './sql-flavor.js';

/** Options of {@link migrateToLatest}. */
export interface MigrateOptions {
  /** SQL dialect. Default is detected from the Kysely instance. */
  flavor?: SqlFlavor;
  /** PostgreSQL schema of the tables, created when missing. Default is `"public"`. Ignored on SQLite. */
  schema?: string;
  /** Create the store when there is none. Default is `true`; `false` throws `StoreNotFoundError` instead. */
  create?: boolean;
  /** How messages name the SQLite database. Default is `"SQLite database"`. */
  location?: string;
}

/**
 * Validates the store behind a Kysely instance and brings it to the latest schema version,
 * creating it when missing, under a lock (SQLite `BEGIN IMMEDIATE`, PostgreSQL advisory lock) in
 * one transaction. Safe to call from many processes at once. The front doors call it for you.
 *
 * @throws StoreSchemaError when the database holds something else (foreign tables, other columns,
 *   an unsupported version); CheckpointValidationError for a schema name PostgreSQL would not
 *   keep as given (see {@link checkSchemaName}).
 * @example
 * ```ts
 * const db = new Kysely<CheckpointDatabase>({ dialect: new PostgresDialect({ pool }) });
 * await migrateToLatest(db, { schema: 'checkpoints' });
 * const adapter = new KyselyAdapter(db, { schema: 'checkpoints' });
 * ```
 */
export async function migrateToLatest(db: Kysely<any>, options: MigrateOptions = {}): Promise<MigrationReport> {
  const flavor = options.flavor ?? detectFlavor(db);
  const create = options.create ?? true;
  // Loaded on demand: the package's main entry exports this function and must not load Kysely.
  if (flavor === 'sqlite') {
    const { ensureSqliteSchema } = await import('./sqlite/sqlite-kysely.js');
    return ensureSqliteSchema(db, options.location ?? 'SQLite database', create);
  }
  const schema = checkSchemaName(options.schema ?? 'public');
  const { ensurePostgresSchema } = await import('./postgres/postgres-schema.js');
  return ensurePostgresSchema(db, schema, create);
}
