/**
 * @session-checkpoint/store-kysely: SQLite (better-sqlite3) and PostgreSQL (pg) storage for
 * session-checkpoint through Kysely. `openSqliteStore` and `openPostgresStore` are the front
 * doors; `KyselyAdapter` works over any Kysely instance on either database.
 *
 * @packageDocumentation
 */
export type * from './schema.js';
export { SCHEMA_VERSION, STORE_TABLES, STORE_COLUMNS, NAMESPACE_INDEX, SESSION_INDEX } from './schema.js';
export * from './kysely-adapter.js';
export type { AdapterConnection, KyselyConnectionOptions } from './adapter-connection.js';
export { KyselyConnection } from './adapter-connection.js';
export type { QueryRunner } from './query-runner.js';
export type { SqlFlavor } from './sql-flavor.js';
export { MIGRATIONS, LATEST_SCHEMA_VERSION, type SchemaMigration, type MigrationContext } from './migrations.js';
export type { MigrationReport } from './migration-report.js';
export * from './migrate-to-latest.js';
export type * from './sqlite/sqlite-database.js';
export * from './sqlite/sqlite-options.js';
export * from './sqlite/create-sqlite-adapter.js';
export * from './sqlite/open-sqlite-adapter.js';
export * from './sqlite/open-sqlite-store.js';
export * from './postgres/open-postgres-store.js';
export { PostgresConnectionError, type PostgresTarget } from './postgres/postgres-connection-error.js';
export { checkSchemaName } from './postgres/postgres-schema-name.js';
export { PostgresPoolTimeoutError } from './postgres/postgres-pool-timeout-error.js';
export { isRetryablePostgresError } from './postgres/retryable-error.js';
