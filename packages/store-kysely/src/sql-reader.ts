import type { Kysely } from 'kysely';
import { rawQuery } from './raw-query.js';
import type { SqliteDatabaseLike } from './sqlite/sqlite-database.js';

/**
 * Reads rows with plain SQL text: what the file and schema checks need, and no more. On the SQLite
 * front door it is the better-sqlite3 handle itself, so opening a current store never loads
 * Kysely; elsewhere it is a Kysely instance, connection or transaction.
 */
export interface SqlReader {
  /** Runs one statement with positional parameters (`?` on SQLite, `$1` on PostgreSQL) and returns its rows. */
  rows<R>(sql: string, parameters?: readonly unknown[]): Promise<R[]>;
}

/** A reader over a better-sqlite3 connection. */
export function sqliteReader(database: SqliteDatabaseLike): SqlReader {
  return {
    rows: async <R>(sql: string, parameters: readonly unknown[] = []) => database.prepare(sql).all(parameters) as R[],
  };
}

/** A reader over a Kysely instance, connection or transaction (its executor, dialect and plugins). */
export function kyselyReader(db: Kysely<any>): SqlReader {
  return {
    rows: async <R>(sql: string, parameters: readonly unknown[] = []) => [...(await db.executeQuery(rawQuery<R>(sql, parameters))).rows],
  };
}
