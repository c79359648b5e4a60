import { execFileSync } from 'node:child_process';
import { delimiter, join } from 'node:path';

/**
 * The system Chromium on PATH (`chromium`, `chromium-browser` or `google-chrome`), the way
 * packages/core's hash-browser test finds it: browser tests drive the Chromium that CI installs
 * (apt-get install chromium) and never download one. `undefined` when none runs.
 *
 * @example
 * ```ts
 * const chromium = findChromium(); // '/usr/bin/chromium'
 * ```
 */
export function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      const file = join(dir, name);
      try {
        execFileSync(file, ['--version'], { stdio: 'ignore', timeout: 30_000 });
        return file;
      } catch {
        // not here; keep looking
      }
    }
  }
  return undefined;
}
