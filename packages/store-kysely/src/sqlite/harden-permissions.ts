import { closeSync, constants, openSync, chmodSync, statSync } from 'node:fs';
import { StoreSecurityError } from '@session-checkpoint/core';

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
export function createOwnerOnlyFile(path: string): boolean {
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
