import { existsSync, readFileSync } from 'node:fs';
import module from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/*
 * How a plugin finds the host's code. A plugin lists `@session-checkpoint/cli` (and optionally
 * `@oclif/core`) as optional peer dependencies, so `plugins install` (npm in the data directory)
 * installs neither, and a linked plugin's own development copy is never used. When plugins are
 * installed, the host registers a module resolution hook: those two package names, imported from
 * code under the data directory or a linked plugin's root (or not found from where they are
 * imported, as while `plugins link` checks a new plugin), resolve from the host package instead,
 * giving every plugin the one copy of BaseCommand, oclif and the drivers the CLI itself runs.
 */

/** Package names (and their subpaths) a plugin gets from the host. */
export const SHARED_PACKAGES = ['@session-checkpoint/cli', '@oclif/core'] as const;

/**
 * oclif's data directory (its Config#dataDir), where `plugins install` / `plugins link` record
 * plugins: `$SESSION_CHECKPOINT_DATA_DIR`, else `$XDG_DATA_HOME/session-checkpoint`, else
 * `~/.local/share/session-checkpoint`.
 */
export function dataDir(): string {
  const scoped = process.env.SESSION_CHECKPOINT_DATA_DIR;
  if (scoped) return scoped;
  const home = process.env.HOME || homedir() || tmpdir();
  return join(process.env.XDG_DATA_HOME || join(home, '.local/share'), 'session-checkpoint');
}

/**
 * Directories holding plugin code (the data directory for installed plugins, each linked
 * plugin's root), or `[]` when no plugin is installed or linked. `undefined` when the record
 * cannot be read: oclif then reports the problem itself.
 */
export function userPluginRoots(dir = dataDir()): string[] | undefined {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return [];
  try {
    const plugins = (JSON.parse(readFileSync(file, 'utf8')) as { oclif?: { plugins?: Array<{ type?: string; root?: string }> } }).oclif?.plugins ?? [];
    if (plugins.length === 0) return [];
    const links = plugins.filter((plugin) => plugin.type === 'link' && typeof plugin.root === 'string').map((plugin) => plugin.root!);
    return [dir, ...links];
  } catch {
    return undefined;
  }
}

// Runs in Node's loader thread, so it is passed as source; `data` comes from registerHostModules.
// Code under a plugin root always gets the host's copy; any other importer (such as a plugin
// being linked right now, whose root is not recorded yet) gets it when its own lookup fails.
const HOOKS = `
let shared = [], hostUrl = '', pluginUrls = [];
export function initialize(data) { ({ shared, hostUrl, pluginUrls } = data); }
export async function resolve(specifier, context, next) {
  if (!shared.some((name) => specifier === name || specifier.startsWith(name + '/'))) return next(specifier, context);
  const parent = typeof context.parentURL === 'string' ? context.parentURL : '';
  if (pluginUrls.some((url) => parent.startsWith(url))) return next(specifier, { ...context, parentURL: hostUrl });
  try {
    return await next(specifier, context);
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return next(specifier, { ...context, parentURL: hostUrl });
  }
}`;

/**
 * Makes `@session-checkpoint/cli` and `@oclif/core` imported by plugin code resolve to the host's
 * copies (ES modules; Node >= 20.6). Called on oclif's path only (the fast path loads no plugin).
 *
 * @param hostRoot Directory of the CLI package (holds its package.json).
 * @param pluginRoots From {@link userPluginRoots}.
 * @example
 * ```ts
 * registerHostModules('/usr/lib/node_modules/@session-checkpoint/cli', userPluginRoots() ?? []);
 * ```
 */
export function registerHostModules(hostRoot: string, pluginRoots: string[]): void {
  if (typeof module.register !== 'function') return;
  const asDir = (dir: string) => pathToFileURL(join(dir, '/')).href;
  module.register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
    data: { shared: SHARED_PACKAGES, hostUrl: pathToFileURL(join(hostRoot, 'package.json')).href, pluginUrls: pluginRoots.map(asDir) },
  });
}
