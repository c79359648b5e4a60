import { CheckpointError, CheckpointValidationError, type CheckpointStore, type CheckpointStoreOptions } from '@session-checkpoint/core';
import { nonNegativeInteger } from '@session-checkpoint/core/toolkit';
import { KyselyAdapter, PreparedAdapterParts } from '../kysely-adapter.js';
import type { CheckpointQueries } from '../queries.js';
import { QueryTemplate } from '../query-template.js';
import { storeOver } from '../store-options.js';
import { SQLITE_QUERY_PARTS } from './frozen-queries.generated.js';
import { SqliteConnection } from './sqlite-connection.js';
import { hardenStoreFiles, narrowStoreFiles, prepareFile, readOnlyFailure, switchToWal, writable } from './sqlite-file.js';
import { DEFAULT_BUSY_TIMEOUT_MS, type CreateSqliteAdapterOptions, type SqliteAdapterOptions, type SqliteDatabaseLike } from './sqlite-options.js';
import { inspectSqliteFile, sqliteReader, sqliteStoreNeedsWrite } from './sqlite-schema.js';

/*
 * The SQLite front doors, outermost first: openSqliteStore wraps openSqliteAdapter, which opens
 * the file and hands the database to createSqliteAdapter, which checks the file, creates or
 * migrates the schema when needed, switches to WAL, restricts the files to their owner and builds
 * the adapter from the frozen queries. Kysely is loaded only on the way to a schema write.
 */

/** Options of {@link openSqliteStore}: the file's and the store's. */
export interface SqliteStoreOptions extends SqliteAdapterOptions, CheckpointStoreOptions {}

/**
 * Opens (or creates) a SQLite checkpoint store file: the embedded default. WAL mode, a busy
 * timeout (default 5000 ms), `synchronous=FULL` unless `durability: "normal"`, owner-only files.
 * Stores written by the Python reference open as they are, and the Python tool opens ours.
 * See {@link openSqliteAdapter} for what happens to the file.
 *
 * @example
 * ```ts
 * const store = await openSqliteStore('./checkpoints.sqlite');
 * await store.create({ sessionId: 's-1', payload: { step: 1 } });
 * await store.close();
 *
 * // read-only use: never creates anything
 * const existing = await openSqliteStore('./checkpoints.sqlite', { create: false });
 * ```
 */
export async function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Promise<CheckpointStore> {
  return storeOver(await openSqliteAdapter(path, options), options);
}

/** The better-sqlite3 constructor, typed by what is used. */
type DatabaseConstructor = new (path: string, options?: { fileMustExist?: boolean; timeout?: number; readonly?: boolean }) => SqliteDatabaseLike;

/** The path of an in-memory database: nothing on disk, gone on close. */
export const SQLITE_MEMORY = ':memory:';

/**
 * Opens (or creates) a SQLite store file and returns its adapter; {@link openSqliteStore} wraps it
 * in a `CheckpointStore`. A new file is created empty with mode 0600 (`O_CREAT | O_EXCL`) before
 * SQLite sees it; an existing file is validated with plain reads first and left byte- and
 * mode-identical when it is not a compatible store. A compatible one is switched to WAL (stores
 * written by the Python tool use a rollback journal; its sqlite3 module reads WAL files fine)
 * and restricted to its owner with its `-wal`/`-shm` files (group and other bits cleared; a bit is
 * never added, so a 0400 store stays 0400). `":memory:"` opens a private in-memory store.
 *
 * With `create: false` and a file or directory this process may not write, the store is opened
 * read-only (see `readOnly`): reads work, writes fail with `SQLITE_READONLY`. A store opened with
 * `readOnly: true` in a writable place leaves no `-wal`/`-shm` file behind that was not there
 * before (the connection is read-write with `PRAGMA query_only`, so SQLite removes them on close
 * when no other process has the store open). A store in WAL mode
 * whose `-shm`/`-wal` files are absent (its last writer closed) can only be read where SQLite may
 * create them, that is, in a writable directory; in a read-only directory that fails with
 * `SQLITE_READONLY_DIRECTORY` and a message saying so.
 *
 * better-sqlite3 is loaded on first use, so PostgreSQL-only users never need it.
 *
 * @throws StoreSchemaError for a file that is not a compatible store (foreign tables, other
 *   columns, another schema version, not SQLite, a directory); StoreNotFoundError with
 *   `create: false` when there is no store.
 * @example
 * ```ts
 * const adapter = await openSqliteAdapter('./data/checkpoints.sqlite', { durability: 'normal' });
 * ```
 */
export async function openSqliteAdapter(path: string, options: SqliteAdapterOptions = {}): Promise<KyselyAdapter> {
  const Database = await loadBetterSqlite3();
  if (path === SQLITE_MEMORY) {
    return createSqliteAdapter(new Database(SQLITE_MEMORY), { ...options, ownsDatabase: true, create: true });
  }
  const create = options.create ?? true;
  const location = prepareFile(path, create);
  const readOnly = options.readOnly ?? (!create && !writable(location));
  // Where the file and its directory are writable, read-only is a read-write connection with
  // `PRAGMA query_only`: SQLite refuses every write just the same, and the last connection to
  // close removes the `-wal` and `-shm` files it had to create for a store in WAL mode (a
  // `readonly` connection leaves them behind, empty). Elsewhere SQLite's own read-only mode.
  const queryOnly = readOnly && writable(location);
  const database = new Database(location, { fileMustExist: true, timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS, readonly: readOnly && !queryOnly });
  try {
    if (queryOnly) database.exec('PRAGMA query_only = ON');
    return await createSqliteAdapter(database, { ...options, ownsDatabase: true, location, readOnly });
  } catch (error) {
    throw readOnly ? readOnlyFailure(error, location) : error;
  }
}

/**
 * A store adapter over a better-sqlite3 database you opened yourself. Validates the file with
 * plain reads (an incompatible file is not touched), creates or migrates the schema under
 * `BEGIN IMMEDIATE`, then switches a file database to WAL, sets `synchronous` and the busy
 * timeout, and restricts the files to their owner.
 *
 * Kysely is loaded only when it is needed: to create or migrate the schema, and for the rare
 * per-call queries (prune, delete by ids). Validating a current store and the hot queries run
 * on the better-sqlite3 handle with SQL frozen from the query builder.
 *
 * Prefer {@link openSqliteAdapter}, which also creates the file owner-only.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const adapter = await createSqliteAdapter(new Database(':memory:'), { ownsDatabase: true });
 * ```
 */
export async function createSqliteAdapter(database: SqliteDatabaseLike, options: CreateSqliteAdapterOptions = {}): Promise<KyselyAdapter> {
  const location = options.location ?? database.name;
  const busyTimeout = nonNegativeInteger(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS, 'busyTimeoutMs');
  const durability = options.durability ?? 'full';
  if (durability !== 'full' && durability !== 'normal') throw new CheckpointValidationError('durability must be "full" or "normal"');

  const ownsDatabase = options.ownsDatabase ?? false;
  try {
    // Connection settings only: none of these writes to the file.
    database.exec(`PRAGMA busy_timeout = ${busyTimeout}`);
    const readOnly = options.readOnly === true || database.readonly === true;
    const create = options.create ?? true;
    const seen = await inspectSqliteFile(sqliteReader(database), location);
    if (sqliteStoreNeedsWrite(seen, location, create, readOnly)) {
      const { migrateSqliteDatabase } = await import('./sqlite-kysely.js');
      await migrateSqliteDatabase(database, location, create);
    }
    if (!database.memory && readOnly) {
      narrowStoreFiles(location);
    } else if (!database.memory) {
      // Only now, after validation: switching to WAL rewrites the file header.
      await switchToWal(database, location, busyTimeout);
      hardenStoreFiles(location);
    }
    database.exec(`PRAGMA synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
  } catch (error) {
    if (ownsDatabase) database.close();
    throw error;
  }
  const parts = new PreparedAdapterParts(
    frozenSqliteQueries(),
    new SqliteConnection(database, { ownsDatabase }),
    database.memory ? { multiProcess: false, persistent: false } : { multiProcess: true, persistent: true },
    async () => (await import('./sqlite-kysely.js')).sqliteCompiler(),
  );
  // The constructor's private form (see PreparedAdapterParts): its public signature takes a Kysely instance.
  return new KyselyAdapter(parts as never);
}

let frozenQueries: CheckpointQueries | undefined;

/**
 * The adapter's hot queries for SQLite, built from their frozen text: what `compileQueries`
 * returns for a SQLite Kysely instance, without loading Kysely. Templates are immutable, so every
 * adapter shares one set.
 */
export function frozenSqliteQueries(): CheckpointQueries {
  frozenQueries ??= Object.fromEntries(
    Object.entries(SQLITE_QUERY_PARTS).map(([name, parts]) => [name, QueryTemplate.frozen(parts)]),
  ) as unknown as CheckpointQueries;
  return frozenQueries;
}

async function loadBetterSqlite3(): Promise<DatabaseConstructor> {
  try {
    const module = (await import('better-sqlite3')) as unknown as { default: DatabaseConstructor };
    return module.default;
  } catch (error) {
    throw new CheckpointError('SQLite stores need the better-sqlite3 package: npm install better-sqlite3', { cause: error });
  }
}
