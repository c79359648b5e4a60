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
export * from './postgres/open-postgres-store.js';
export { PostgresConnectionError, type PostgresTarget } from './postgres/postgres-connection-error.js';
export { checkSchemaName } from './postgres/postgres-schema-name.js';
export { PostgresPoolTimeoutError } from './postgres/postgres-pool-timeout-error.js';
export { isRetryablePostgresError } from './postgres/retryable-error.js';
