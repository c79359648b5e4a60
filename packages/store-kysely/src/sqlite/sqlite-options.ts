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

/** The busy timeout when none is given, as in the Python reference. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;
