/**
 * Naming files in refusals: what kind a file is, and its path quoted as Python's `repr()` would,
 * so messages read the same as the reference's `[Errno ...] ...: 'path'`.
 */
import type { Stats } from 'node:fs';

/**
 * What kind of file `stats` describes: `regular file`, `directory`, `symbolic link`, `FIFO`,
 * `socket`, `character device`, `block device` or `special file`.
 *
 * @example
 * ```ts
 * fileKind(await lstat('/dev/null')); // 'character device'
 * ```
 */
export function fileKind(stats: Stats): string {
  if (stats.isFile()) return 'regular file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symbolic link';
  if (stats.isFIFO()) return 'FIFO';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  return 'special file';
}

/**
 * Sets `path` on a Node system error (code `E...`, e.g. `EISDIR` from a read, which Node reports
 * without one) so that the message names the file the user gave. With `replace`, a path already
 * there is overwritten too (a temporary file's name means nothing to the user) and `dest` is
 * dropped. Any other value is returned unchanged.
 *
 * @example
 * ```ts
 * throw namingPath(error, 'backup/app.json', { replace: true });
 * ```
 */
export function namingPath<E>(error: E, path: string, options: { replace?: boolean } = {}): E {
  if (!(error instanceof Error)) return error;
  const fields = error as { code?: unknown; path?: unknown; dest?: unknown };
  if (typeof fields.code !== 'string' || !/^E[A-Z0-9]+$/u.test(fields.code)) return error;
  if (options.replace === true) {
    fields.path = path;
    delete fields.dest;
  } else if (typeof fields.path !== 'string') {
    fields.path = path;
  }
  return error;
}
