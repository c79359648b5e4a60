import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What `session-checkpoint --version` prints as its result. */
export interface VersionResult {
  /** The CLI package's name, `@session-checkpoint/cli`. */
  name: string;
  /** The CLI package's version, e.g. `0.1.0`. */
  version: string;
  /** `process.version`, e.g. `v20.19.0`. */
  node: string;
  /** `<platform>-<arch>`, e.g. `linux-x64`. */
  platform: string;
  /** oclif's user agent line, the text `--version` printed before it printed JSON: `@session-checkpoint/cli/0.1.0 linux-x64 node-v20.19.0`. */
  userAgent: string;
}

/**
 * The `--version` result, read from the CLI's own package.json (no oclif needed), so that
 * `--version` keeps the one-JSON-document rule like every command.
 *
 * @param root The CLI package's root (holds its package.json).
 * @example
 * ```ts
 * versionResult('/usr/lib/node_modules/@session-checkpoint/cli');
 * // { name: '@session-checkpoint/cli', version: '0.1.0', node: 'v20.19.0', platform: 'linux-x64', userAgent: '@session-checkpoint/cli/0.1.0 linux-x64 node-v20.19.0' }
 * ```
 */
export function versionResult(root: string): VersionResult {
  const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  const platform = `${process.platform}-${process.arch}`;
  return { name, version, node: process.version, platform, userAgent: `${name}/${version} ${platform} node-${process.version}` };
}
