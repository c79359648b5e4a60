import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors/usage-error.js';
import { expandHome } from '../input/expand-home.js';

/*
 * @oclif/plugin-plugins reads any argument with a `/` and no `:` as a GitHub `owner/repo`, so
 * `plugins install /abs/plugin.tgz` went to the network and waited for github.com. A local path
 * is turned into a `file:` URL here, before plugin-plugins sees it; npm then installs from that
 * path and nothing else. A `file:` spec (`file:./x.tgz`, `file:/abs/x.tgz`, `file:///abs/x.tgz`) is
 * the same local path said the npm way; it is resolved here too, from the working directory (npm
 * runs in the data directory and would resolve a relative one from there). Any other scheme
 * (`https://.../x.tgz`, `git+ssh://...`) is a URL and goes to plugin-plugins and npm as it is.
 */

/** How a local source is installed. */
export interface LocalSource {
  /** The `file:` spec handed to `plugins install`. */
  spec: string;
  /** True for a folder: npm must copy it (`install-links`), not symlink it into the data directory. */
  directory: boolean;
}

/**
 * True when `arg` names a local file or folder rather than an npm package, a URL or a repository:
 * it has no URL scheme and starts with `/`, `./`, `../`, `~/` (or is `.`, `..`, `~`), is a Windows
 * path, or ends in `.tgz`, `.tar.gz` or `.tar`. `file:` specs are {@link fileSpecPath}'s.
 *
 * @example
 * ```ts
 * looksLocal('./dist/plugin.tgz'); // true
 * looksLocal('oclif/plugin-version'); // false (a GitHub repository)
 * looksLocal('https://example.com/plugin.tgz'); // false (a URL: npm downloads it)
 * ```
 */
export function looksLocal(arg: string): boolean {
  // A scheme of two or more letters is a URL or an npm spec; `C:` (one letter) is a Windows drive.
  if (arg.startsWith('-') || /^[a-z][a-z0-9+.-]+:/i.test(arg)) return false;
  return isAbsolute(arg) || /^(\.{1,2}|~)([\\/]|$)/.test(arg) || /\.(tgz|tar\.gz|tar)$/i.test(arg);
}

/**
 * The `file:` spec to install a local plugin from, checked first: the path must be a regular file
 * (a packed tarball) or a folder.
 *
 * @throws Node's ENOENT (printed as `OSError: [Errno 2] No such file or directory: 'x'`) for a
 *   missing path; UsageError for a FIFO, socket or device.
 * @example
 * ```ts
 * localSource('./plugin-hello-0.1.0.tgz'); // { spec: 'file:/home/me/plugin-hello-0.1.0.tgz', directory: false } (from /home/me)
 * ```
 */
export function localSource(arg: string): LocalSource {
  const path = resolve(expandHome(arg));
  const stats = statSync(path);
  if (!stats.isFile() && !stats.isDirectory()) throw new UsageError(`plugin path '${arg}' is neither a file nor a directory`);
  // Not pathToFileURL: npm keeps the percent-escapes of a URL in the path it looks for.
  return { spec: `file:${path}`, directory: stats.isDirectory() };
}

/**
 * The local path a `file:` spec names (`file:` + path, or a `file://` URL), or `undefined` when
 * `arg` is not a `file:` spec. A relative path stays relative (to the working directory).
 *
 * @example
 * ```ts
 * fileSpecPath('file:./plugin.tgz'); // './plugin.tgz'
 * fileSpecPath('file:///tmp/plugin.tgz'); // '/tmp/plugin.tgz'
 * fileSpecPath('https://example.com/plugin.tgz'); // undefined
 * ```
 */
export function fileSpecPath(arg: string): string | undefined {
  if (!/^file:/i.test(arg)) return undefined;
  return /^file:\/\//i.test(arg) ? fileURLToPath(arg) : arg.slice('file:'.length);
}
