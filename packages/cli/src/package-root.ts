import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The nearest directory at or above `bin` (a path or file URL) holding a package.json: what
 * oclif calls the root.
 *
 * @example
 * ```ts
 * packageRoot(import.meta.url); // '/usr/lib/node_modules/@session-checkpoint/cli'
 * ```
 */
export function packageRoot(bin: string): string | undefined {
  const path = bin.startsWith('file:') ? fileURLToPath(bin) : bin;
  for (let dir = path, depth = 0; depth < 4; dir = dirname(dir), depth++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return undefined;
}
