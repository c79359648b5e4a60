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
 * A path in single quotes with `\` and `'` escaped, like Python's `repr()` of a plain string.
 *
 * @example
 * ```ts
 * quotePath("it's.json"); // "'it\\'s.json'"
 * ```
 */
export function quotePath(path: string): string {
  return `'${path.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
