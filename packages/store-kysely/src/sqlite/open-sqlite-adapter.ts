import { accessSync, constants, existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CheckpointError, StoreNotFoundError, StoreSchemaError } from '@session-checkpoint/core';
import type { KyselyAdapter } from '../kysely-adapter.js';
import { createSqliteAdapter } from './create-sqlite-adapter.js';
import { createOwnerOnlyFile } from './harden-permissions.js';
import type { SqliteDatabaseLike } from './sqlite-database.js';
import type { SqliteAdapterOptions } from './sqlite-options.js';

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
 * read-only (see `readOnly`): reads work, writes fail with `SQLITE_READONLY`. A store in WAL mode
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
  const database = new Database(location, { fileMustExist: true, timeout: options.busyTimeoutMs ?? 5000, readonly: readOnly });
  try {
    return await createSqliteAdapter(database, { ...options, ownsDatabase: true, location, readOnly });
  } catch (error) {
    throw readOnly ? readOnlyFailure(error, location) : error;
  }
}

/** True when this process may write the file and create files beside it (`-wal`, `-shm`). */
function writable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    accessSync(dirname(file), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** SQLite's codes for "a read-only connection could not set up the WAL index". */
const WAL_SETUP_CODES = new Set(['SQLITE_READONLY_DIRECTORY', 'SQLITE_CANTOPEN', 'SQLITE_READONLY_CANTINIT', 'SQLITE_READONLY_RECOVERY']);

/** SQLite's terse "attempt to write a readonly database" on a read, explained; the code is kept. */
function readOnlyFailure(error: unknown, location: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !WAL_SETUP_CODES.has(code)) return error;
  const message =
    `Cannot read ${location} without write access: the store is in WAL mode and SQLite must create or update ` +
    `${location}-shm and ${location}-wal, which this process may not do (${code}). ` +
    'Read it from a directory this process may write to.';
  return Object.assign(new Error(message, { cause: error }), { code });
}

/**
 * `mkdir -p` one level at a time. Node's recursive mkdir never returns for some virtual file
 * systems (a parent under /proc spins forever), so each missing level is created on its own and
 * the first failure surfaces as an ordinary error.
 */
function makeParents(dir: string): void {
  const missing: string[] = [];
  for (let current = dir; !existsSync(current); current = dirname(current)) {
    missing.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const level of missing) mkdirSync(level);
}

/**
 * Resolves the path and makes sure a regular file is there (creating it owner-only when allowed).
 * Returns the resolved path, symlinks followed, as the reference reports it.
 */
function prepareFile(path: string, create: boolean): string {
  const absolute = resolve(path);
  if (!existsSync(absolute)) {
    if (!create) throw new StoreNotFoundError(`Checkpoint store not found: ${absolute}`);
    makeParents(dirname(absolute));
    createOwnerOnlyFile(absolute);
  }
  const real = realpathSync(absolute);
  if (!statSync(real).isFile()) throw new StoreSchemaError(`Refusing incompatible SQLite file ${real}: not a regular file`);
  return real;
}

async function loadBetterSqlite3(): Promise<DatabaseConstructor> {
  try {
    const module = (await import('better-sqlite3')) as unknown as { default: DatabaseConstructor };
    return module.default;
  } catch (error) {
    throw new CheckpointError('SQLite stores need the better-sqlite3 package: npm install better-sqlite3', { cause: error });
  }
}
