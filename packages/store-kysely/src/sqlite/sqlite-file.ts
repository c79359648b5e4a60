import { accessSync, chmodSync, closeSync, constants, existsSync, mkdirSync, openSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { StoreNotFoundError, StoreSchemaError, StoreSecurityError } from '@session-checkpoint/core';
import type { SqliteDatabaseLike } from './sqlite-options.js';

/*
 * The store file on disk: made owner-only before SQLite sees it, resolved and checked to be a
 * regular file, restricted to its owner with its side files, and switched to WAL mode.
 */

/**
 * Resolves the path and makes sure a regular file is there (creating it owner-only when allowed).
 * Returns the resolved path, symlinks followed, as the reference reports it.
 */
export function prepareFile(path: string, create: boolean): string {
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
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      // Another process made it between the check and here (several openers of one new store).
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(level).isDirectory()) throw error;
    }
  }
}

/** True when this process may write the file and create files beside it (`-wal`, `-shm`). */
export function writable(file: string): boolean {
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
export function readOnlyFailure(error: unknown, location: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !WAL_SETUP_CODES.has(code)) return error;
  const message =
    `Cannot read ${location} without write access: the store is in WAL mode and SQLite must create or update ` +
    `${location}-shm and ${location}-wal, which this process may not do (${code}). ` +
    'Read it from a directory this process may write to.';
  return Object.assign(new Error(message, { cause: error }), { code });
}

/** Owner read/write only. */
const OWNER_ONLY = 0o600;

/** Files SQLite keeps beside a database; each holds database content. */
const SIDE_FILES = ['-wal', '-shm', '-journal'] as const;

/** POSIX permissions are meaningless on Windows (ACLs apply); the reference skips them there too. */
const POSIX = process.platform !== 'win32';

/**
 * Creates an empty file readable and writable by its owner only, whatever the umask, failing if
 * it exists (`O_CREAT | O_EXCL`), so the store is never group- or world-readable, not even for an
 * instant. Returns `false` when another process created it first.
 */
function createOwnerOnlyFile(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, OWNER_ONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    // The umask may have removed owner bits from the mode given to open.
    if (POSIX) chmodSync(path, OWNER_ONLY);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Clears group, other and owner-execute bits of `file` (a chmod only when one is set): never adds a bit. */
function narrowMode(file: string): void {
  const mode = statSync(file).mode & 0o7777;
  if ((mode & OWNER_ONLY) !== mode) chmodSync(file, mode & OWNER_ONLY);
}

/**
 * Restricts a store and its `-wal`, `-shm` and `-journal` files to their owner by clearing group
 * and other bits (0644 becomes 0600), then checks that none is left. It only ever removes bits: a
 * 0400 store stays 0400, so opening never grants write access the owner took away. Call it only
 * after the file validated as a store: an incompatible file must be left with the mode it had.
 *
 * @throws StoreSecurityError when a file cannot be restricted.
 */
export function hardenStoreFiles(path: string): void {
  if (!POSIX) return;
  for (const file of [path, ...SIDE_FILES.map((suffix) => path + suffix)]) {
    try {
      narrowMode(file);
      if ((statSync(file).mode & 0o077) !== 0) throw new StoreSecurityError(`Store file ${file} is still accessible to group or others`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && file !== path) continue;
      if (error instanceof StoreSecurityError) throw error;
      throw new StoreSecurityError(`Could not restrict ${file} to its owner (0600): ${(error as Error).message}`, { cause: error });
    }
  }
}

/**
 * {@link hardenStoreFiles} for a store opened read-only: clears group and other bits where the
 * caller may (it owns the file and the file system is writable) and otherwise leaves the mode
 * alone, since reading a file the OS let us open is no reason to fail.
 */
export function narrowStoreFiles(path: string): void {
  if (!POSIX) return;
  for (const file of [path, ...SIDE_FILES.map((suffix) => path + suffix)]) {
    try {
      narrowMode(file);
    } catch {
      // Missing side file, not our file (EPERM), read-only file system (EROFS): nothing to narrow.
    }
  }
}

/** The longest pause between two tries, in milliseconds. */
const MAX_PAUSE_MS = 100;

/**
 * Switches a store file to WAL mode, waiting up to `busyTimeoutMs` for other connections.
 *
 * Why it retries itself: `PRAGMA journal_mode = WAL` reads the file first and then upgrades to a
 * write lock. SQLite never calls the busy handler for that upgrade (waiting could deadlock with a
 * writer that waits for our read lock to go), so while another process holds the write lock (for
 * example, creating the same new store under `BEGIN IMMEDIATE`) the pragma fails at once with
 * `SQLITE_BUSY`, whatever `busy_timeout` says. Our statement holds no lock between tries, so
 * pausing and trying again is safe, and the other writer finishes.
 *
 * @param location Path shown in messages.
 * @throws the last `SQLITE_BUSY` error once `busyTimeoutMs` has passed; StoreSchemaError when
 *   SQLite keeps another journal mode.
 * @example
 * ```ts
 * await switchToWal(database, './checkpoints.sqlite', 5000);
 * ```
 */
export async function switchToWal(database: SqliteDatabaseLike, location: string, busyTimeoutMs: number): Promise<void> {
  const deadline = Date.now() + busyTimeoutMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    let mode: { journal_mode?: string } | undefined;
    try {
      mode = database.prepare('PRAGMA journal_mode = WAL').get([]) as { journal_mode?: string } | undefined;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(1, deadline - Date.now()))));
      continue;
    }
    if (mode?.journal_mode !== 'wal') throw new StoreSchemaError(`Could not switch ${location} to WAL mode (got ${String(mode?.journal_mode)})`);
    return;
  }
}

/** `SQLITE_BUSY` and its extended codes (`SQLITE_BUSY_RECOVERY`, `SQLITE_BUSY_SNAPSHOT`, ...). */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
