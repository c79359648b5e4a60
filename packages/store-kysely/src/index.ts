/**
 * @session-checkpoint/store-kysely: SQLite (better-sqlite3) and PostgreSQL (pg) storage for
 * session-checkpoint through Kysely. `openSqliteStore` and `openPostgresStore` are the front
 * doors; `KyselyAdapter` works over any Kysely instance on either database.
 *
 * @packageDocumentation
 */
export type * from './schema.js';
export { SCHEMA_VERSION, STORE_TABLES, STORE_COLUMNS, NAMESPACE_INDEX, SESSION_INDEX } from './schema.js';
export { KyselyAdapter, type KyselyAdapterOptions } from './kysely-adapter.js';
export type { AdapterConnection, KyselyConnectionOptions, QueryRunner } from './adapter-connection.js';
export { KyselyConnection } from './adapter-connection.js';
export type { SqlFlavor } from './sql-flavor.js';
export { MIGRATIONS, LATEST_SCHEMA_VERSION, type SchemaMigration, type MigrationContext, type MigrationReport } from './migrations.js';
export { migrateToLatest, type MigrateOptions } from './migrate-to-latest.js';
export {
  DEFAULT_BUSY_TIMEOUT_MS,
  type CreateSqliteAdapterOptions,
  type SqliteAdapterOptions,
  type SqliteDatabaseLike,
  type SqliteDurability,
  type SqliteStatementLike,
} from './sqlite/sqlite-options.js';
export { createSqliteAdapter, openSqliteAdapter, openSqliteStore, SQLITE_MEMORY, type SqliteStoreOptions } from './sqlite/open-sqlite-store.js';
export {
  DEFAULT_ACQUIRE_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  openPostgresAdapter,
  openPostgresStore,
  type PostgresAdapterOptions,
  type PostgresConnection,
  type PostgresStoreOptions,
} from './postgres/open-postgres-store.js';
export { isRetryablePostgresError, PostgresConnectionError, PostgresPoolTimeoutError, type PostgresTarget } from './postgres/postgres-errors.js';
export { checkSchemaName } from './postgres/postgres-schema-name.js';
