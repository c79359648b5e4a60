import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CheckpointError, StoreNotFoundError, StoreSchemaError } from '@session-checkpoint/core';
import type { KyselyAdapter } from '../kysely-adapter.js';
import { createSqliteAdapter } from './create-sqlite-adapter.js';
import { createOwnerOnlyFile } from './harden-permissions.js';
import type { SqliteDatabaseLike } from './sqlite-database.js';
import type { SqliteAdapterOptions } from './sqlite-options.js';

/** The better-sqlite3 constructor, typed by what is used. */
type DatabaseConstructor = new (path: string, options?: { fileMustExist?: boolean; timeout?: number }) => SqliteDatabaseLike;

/** The path of an in-memory database: nothing on disk, gone on close. */
export const SQLITE_MEMORY = ':memory:';

/**
 * Opens (or creates) a SQLite store file and returns its adapter; {@link openSqliteStore} wraps it
 * in a `CheckpointStore`. A new file is created empty with mode 0600 (`O_CREAT | O_EXCL`) before
 * SQLite sees it; an existing file is validated with plain reads first and left byte- and
 * mode-identical when it is not a compatible store. A compatible one is switched to WAL (stores
 * written by the Python tool use a rollback journal; its sqlite3 module reads WAL files fine)
 * and restricted to 0600 with its `-wal`/`-shm` files. `":memory:"` opens a private in-memory store.
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
  const location = prepareFile(path, options.create ?? true);
  const database = new Database(location, { fileMustExist: true, timeout: options.busyTimeoutMs ?? 5000 });
  return createSqliteAdapter(database, { ...options, ownsDatabase: true, location });
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
