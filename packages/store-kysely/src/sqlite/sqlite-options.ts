import type { SqliteDatabase, SqliteStatement } from 'kysely';

/*
 * What the SQLite front door is given: its options, and the better-sqlite3 surface this package
 * uses, typed structurally so that neither the package nor its declaration files depend on
 * better-sqlite3's types (it is an optional peer).
 */

/**
 * How hard SQLite works to keep an acknowledged write.
 * - `"full"`: `synchronous=FULL`. Every commit is on disk before it is acknowledged: it survives
 *   a crash of the process and of the machine (power loss).
 * - `"normal"`: `synchronous=NORMAL` in WAL mode. Faster; a process crash loses nothing, but power
 *   loss or an OS crash may lose the last commits. The database is never corrupted.
 */
export type SqliteDurability = 'full' | 'normal';

/** Options shared by {@link openSqliteAdapter} and {@link createSqliteAdapter}. */
export interface SqliteAdapterOptions {
  /**
   * Create the store (file, parent directories, schema) when missing. Default is `true`. With
   * `false` a missing file, or one that holds no store, throws `StoreNotFoundError` and nothing
   * is created: use it for read-only commands.
   */
  create?: boolean;
  /** See {@link SqliteDurability}. Default is `"full"`. */
  durability?: SqliteDurability;
  /**
   * Open without write access: nothing is written on open (no switch to WAL, no index added, no
   * chmod beyond narrowing group and other bits where allowed) and every write fails with
   * `SQLITE_READONLY`. Default is `false`; {@link openSqliteAdapter} with `create: false` opens
   * read-only by itself when the file or its directory is not writable, so read commands work on
   * a store the user may only read.
   */
  readOnly?: boolean;
  /** How long a writer waits for another process's write lock before failing, in ms. Default is `5000`. */
  busyTimeoutMs?: number;
}

/** Options of {@link createSqliteAdapter}. */
export interface CreateSqliteAdapterOptions extends SqliteAdapterOptions {
  /** Close the database when the adapter closes. Default is `false`: the caller opened it. */
  ownsDatabase?: boolean;
  /** Path shown in messages and hardened to 0600. Default is `database.name`. */
  location?: string;
}

/** The busy timeout when none is given, as in the Python reference. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

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
