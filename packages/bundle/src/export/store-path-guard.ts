/**
 * The one thing export must never do is replace the store it reads. Paths are compared after
 * resolving symlinks (like Python's `Path.resolve()`), and existing files also by device and inode,
 * which catches hard links too.
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { CheckpointValidationError } from '@session-checkpoint/core';

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

async function fileIdentity(path: string): Promise<string | undefined> {
  try {
    const s = await stat(path);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * Throws when `output` is the store file itself (same resolved path, or same inode).
 *
 * @throws CheckpointValidationError `Export output must not overwrite the checkpoint store`.
 */
export async function assertNotStorePath(output: string, storePath: string): Promise<void> {
  const [out, store] = await Promise.all([resolveRealPath(output), resolveRealPath(storePath)]);
  let same = out === store;
  if (!same) {
    const [a, b] = await Promise.all([fileIdentity(out), fileIdentity(store)]);
    same = a !== undefined && a === b;
  }
  if (same) throw new CheckpointValidationError('Export output must not overwrite the checkpoint store');
}
