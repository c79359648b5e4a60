import { PostgresAdapter, SqliteAdapter, type Kysely } from 'kysely';
import { StoreSchemaError } from '@session-checkpoint/core';

/**
 * The SQL dialects the adapter knows. They differ in locking (SQLite serialises writers with
 * `BEGIN IMMEDIATE`, PostgreSQL needs advisory locks), id sequences and DDL.
 */
export type SqlFlavor = 'sqlite' | 'postgres';

/**
 * The flavour of a Kysely instance, from its dialect adapter.
 *
 * @throws StoreSchemaError for dialects other than SQLite and PostgreSQL.
 */
export function detectFlavor(db: Kysely<any>): SqlFlavor {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  if (adapter instanceof PostgresAdapter) return 'postgres';
  throw new StoreSchemaError(`Unsupported Kysely dialect ${adapter.constructor.name}: use SQLite or PostgreSQL, or pass the flavor option`);
}
