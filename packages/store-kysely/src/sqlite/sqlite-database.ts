import type { SqliteDatabase, SqliteStatement } from 'kysely';

/*
 * The better-sqlite3 surface this package uses, typed structurally so that neither the package
 * nor its declaration files depend on better-sqlite3's types (it is an optional peer).
 */

/** A prepared statement, as better-sqlite3's `Statement` provides it. */
export interface SqliteStatementLike extends SqliteStatement {
  /** One row or `undefined`; parameters as one array. */
  get(parameters: ReadonlyArray<unknown>): unknown;
}

/**
 * A better-sqlite3 `Database`, or anything with the same members.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const database: SqliteDatabaseLike = new Database('checkpoints.sqlite');
 * ```
 */
export interface SqliteDatabaseLike extends SqliteDatabase {
  prepare(sql: string): SqliteStatementLike;
  /** Runs SQL text without parameters (transaction control, DDL). */
  exec(sql: string): unknown;
  /** True while a transaction is open on the connection. */
  readonly inTransaction: boolean;
  /** The path the database was opened with (`:memory:` for an in-memory database). */
  readonly name: string;
  /** True for an in-memory database. */
  readonly memory: boolean;
  /** True when opened read-only (better-sqlite3 `readonly`). Absent counts as false. */
  readonly readonly?: boolean;
}
