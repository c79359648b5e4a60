/**
 * What an export may write to. It replaces only a regular file (or creates a new one), never a
 * device, FIFO, socket or directory, never through a symlink in the last component, and never the
 * store or one of SQLite's companion files (`-wal`, `-shm`, `-journal`). Paths are compared the way
 * the kernel resolves them (the parent directory through `realpath`, so symlinked directories and
 * `..` are followed), by name case-insensitively within the store's directory, and existing files
 * also by device and inode, which catches hard links.
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CheckpointValidationError } from '@session-checkpoint/core';
import { pythonRepr as quote } from '@session-checkpoint/core/toolkit';
import { fileKind, namingPath } from './file-kind.js';
import { makeParents } from './make-parents.js';

/** SQLite's files beside a database: a write over any of them corrupts or loses committed data. */
const STORE_COMPANIONS = ['', '-wal', '-shm', '-journal'] as const;

/** Device and inode of an existing file. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

/** A checked export destination (see {@link prepareExportTarget}). */
export interface ExportTarget {
  /** Absolute path: the real parent directory plus the file name. */
  path: string;
  /** The regular file now at `path`, or `null` when there is none (it will be created). */
  existing: FileIdentity | null;
  /** Removes the parent directories that {@link prepareExportTarget} created (empty ones only). */
  undo(): Promise<void>;
}

/**
 * The absolute path with every existing symlink resolved; missing trailing parts are appended
 * as given (the file may not exist yet). Like Python's non-strict `Path.resolve()`.
 *
 * @example
 * ```ts
 * await resolveRealPath('out/../x.json'); // '/home/me/x.json'
 * ```
 */
export async function resolveRealPath(path: string): Promise<string> {
  const absolute = resolve(path);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return absolute;
      missing.push(basename(current));
      current = parent;
    }
  }
}

async function identity(path: string): Promise<FileIdentity | undefined> {
  try {
    const s = await stat(path);
    return { dev: s.dev, ino: s.ino };
  } catch {
    return undefined;
  }
}

const sameFile = (a: FileIdentity | undefined | null, b: FileIdentity | undefined | null): boolean =>
  a !== undefined && a !== null && b !== undefined && b !== null && a.dev === b.dev && a.ino === b.ino;

/**
 * Refuses `target` (an absolute path whose parent is real) when it is the store or one of its
 * companion files: same directory and same name ignoring case, or the same inode.
 */
async function assertNotStoreFile(target: string, existing: FileIdentity | null, storePath: string): Promise<void> {
  const store = await resolveRealPath(storePath);
  const sameDirectory = dirname(target) === dirname(store) || sameFile(await identity(dirname(target)), await identity(dirname(store)));
  const name = basename(target).toLowerCase();
  for (const suffix of STORE_COMPANIONS) {
    const companion = store + suffix;
    const hit = (sameDirectory && name === basename(companion).toLowerCase()) || sameFile(existing, await identity(companion));
    if (!hit) continue;
    throw new CheckpointValidationError(
      suffix === '' ? 'Export output must not overwrite the checkpoint store' : `Export output must not overwrite the checkpoint store's ${suffix} file`,
    );
  }
}

/**
 * Throws when `output` is the store file itself or one of its companion files (same resolved
 * path ignoring case, or same inode).
 *
 * @throws CheckpointValidationError `Export output must not overwrite the checkpoint store`
 *   (or `... the checkpoint store's -wal file`, likewise `-shm`, `-journal`).
 * @example
 * ```ts
 * await assertNotStorePath('backup.json', 'app.sqlite'); // fine
 * await assertNotStorePath('app.sqlite-wal', 'app.sqlite'); // throws
 * ```
 */
export async function assertNotStorePath(output: string, storePath: string): Promise<void> {
  const target = await resolveRealPath(output);
  await assertNotStoreFile(target, (await identity(target)) ?? null, storePath);
}

/**
 * Checks where an export may write, creating missing parent directories. On any refusal the
 * directories it created are removed again and nothing else is touched.
 *
 * Refused (each a `CheckpointValidationError`): an empty path or one ending in `/`; an existing
 * directory, FIFO, socket, character or block device; a symlink as the last component (even one
 * that points at a regular file, or nowhere); the store or its `-wal`, `-shm`, `-journal` files
 * when `storePath` is given.
 *
 * @param output The path as the user gave it (`~` already expanded).
 * @param storePath The store file to protect. Default is none (e.g. a PostgreSQL store).
 * @throws CheckpointValidationError for a refused destination; Node system errors (EACCES,
 *   ENOTDIR...) carrying `output` as their path.
 * @example
 * ```ts
 * const target = await prepareExportTarget('backup/app.json', { storePath: 'app.sqlite' });
 * // { path: '/home/me/backup/app.json', existing: null, undo }
 * ```
 */
export async function prepareExportTarget(output: string, options: { storePath?: string } = {}): Promise<ExportTarget> {
  const name = basename(output);
  if (output === '' || /[/\\]$/u.test(output) || name === '.' || name === '..') {
    throw new CheckpointValidationError(`Export output ${quote(output)} must name a file, not a directory`);
  }
  let undo: () => Promise<void> = async () => undefined;
  try {
    undo = await makeParents(dirname(output)).catch((error: unknown) => {
      throw namingPath(error, output, { replace: true });
    });
    // The kernel's view of the parent, `..` after a symlinked directory included.
    const parent = await realpath(dirname(output)).catch((error: unknown) => {
      throw namingPath(error, output, { replace: true });
    });
    const path = join(parent, name);
    let existing: FileIdentity | null = null;
    let found: Stats | undefined;
    try {
      found = await lstat(path);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT') throw namingPath(error, output, { replace: true });
    }
    if (found?.isSymbolicLink()) {
      throw new CheckpointValidationError(
        `Export output ${quote(output)} is a symbolic link; refusing to write through it (give the path of the file itself)`,
      );
    }
    if (found !== undefined && !found.isFile()) {
      throw new CheckpointValidationError(`Export output ${quote(output)} is a ${fileKind(found)}, not a regular file; refusing to replace it`);
    }
    if (found !== undefined) existing = { dev: found.dev, ino: found.ino };
    if (options.storePath !== undefined) await assertNotStoreFile(path, existing, options.storePath);
    return { path, existing, undo };
  } catch (error) {
    await undo();
    throw error;
  }
}
