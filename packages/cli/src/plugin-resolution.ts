import { readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/*
 * Whether the plugin host's resolve hook (plugin-host.ts) would change anything. Registering it
 * costs a plugin command most of its start-up on Node 20, where hooks run in a loader thread that
 * must start and that every later import waits on (docs/decisions/0003-plugin-entry-bundled-resolve-hook-when-needed.md). When each plugin's
 * own lookup already lands on the host's copies (a plugin linked inside the host's workspace, or
 * beside a linked host) and finds every fallback package, the hook returns what Node would: it is
 * then not registered. Anything this cannot tell for sure counts as "needed".
 */

/** Directories under a plugin root we look at before giving up (and registering the hook). */
const MAX_WALKED_ENTRIES = 400;

/**
 * The real path of the package `name` as Node's ESM resolver finds it from `dir` (each
 * `node_modules` folder from `dir` up to the file system root), or `undefined`.
 */
function findPackage(dir: string, name: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    const candidate = join(current, 'node_modules', name);
    try {
      if (statSync(join(candidate, 'package.json')).isFile()) return realpathSync(candidate);
    } catch {
      // Not here: one folder up.
    }
    if (dirname(current) === current) return undefined;
  }
}

/** Files that can import (JSON, addons and the rest under a plugin root import nothing). */
const CODE = /\.(?:[cm]?[jt]s|[jt]sx)$/u;

/**
 * What is under a plugin root: `'nested'` when some file there could resolve a package
 * differently from `root` itself (a `node_modules` folder below it, or a link, which could lead to
 * one), also past {@link MAX_WALKED_ENTRIES} entries or on an error; else `'code'` when it holds
 * code, `'none'` when not (the data directory of a CLI with only linked plugins: its package.json).
 */
function rootContents(root: string): 'nested' | 'code' | 'none' {
  let walked = 0;
  let code = false;
  const walk = (dir: string): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const entry of entries) {
      if (++walked > MAX_WALKED_ENTRIES || entry.isSymbolicLink()) return false;
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules' || !walk(join(dir, entry.name))) return false;
      } else if (CODE.test(entry.name)) {
        code = true;
      }
    }
    return true;
  };
  if (!walk(root)) return 'nested';
  return code ? 'code' : 'none';
}

/**
 * Whether plugin code could resolve a package differently with the host's resolve hook on: true
 * unless every plugin root holds no `node_modules` folder or link of its own and either holds no
 * code (the data directory when every plugin is linked) or resolves each shared package to the
 * host's own copy and finds each fallback package. `false` for no roots.
 *
 * @param hostRoot Directory of the CLI package.
 * @param pluginRoots From `userPluginRoots` (the data directory, linked plugins' roots).
 * @param shared Packages a plugin must get from the host (plugin-host.ts SHARED_PACKAGES).
 * @param fallback Packages a plugin gets from the host when it cannot find them (HOST_FALLBACK_PACKAGES).
 * @example
 * ```ts
 * hostHookChangesResolution('/repo/packages/cli', ['/repo/examples/plugin-hello'], ['@oclif/core'], ['pg']); // false in the workspace
 * ```
 */
export function hostHookChangesResolution(hostRoot: string, pluginRoots: readonly string[], shared: readonly string[], fallback: readonly string[]): boolean {
  if (pluginRoots.length === 0) return false;
  let host: string;
  try {
    host = realpathSync(hostRoot);
  } catch {
    return true;
  }
  const hostCopies = new Map<string, string | undefined>();
  const hostCopy = (name: string): string | undefined => {
    if (!hostCopies.has(name)) hostCopies.set(name, name === '@session-checkpoint/cli' ? host : findPackage(host, name));
    return hostCopies.get(name);
  };
  for (const root of pluginRoots) {
    const contents = rootContents(root);
    if (contents === 'nested') return true;
    if (contents === 'none') continue;
    for (const name of shared) {
      const own = findPackage(root, name);
      if (own === undefined || own !== hostCopy(name)) return true;
    }
    for (const name of fallback) if (findPackage(root, name) === undefined) return true;
  }
  return false;
}
