import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Like Python's `Path.expanduser()` for the forms a shell leaves alone when quoted: `~` and
 * `~/rest` mean the home directory; every other path is returned unchanged.
 *
 * @example
 * ```ts
 * expandHome('~/exports/app.json'); // '/home/me/exports/app.json'
 * ```
 */
export function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}
