import { readFileSync, statSync, type Stats } from 'node:fs';
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
const SHARED_PACKAGES = ['@session-checkpoint/cli', '@oclif/core'] as const;

/**
 * The host's runtime packages, resolved from the host for any importer that cannot find them
 * itself. In a global install of the separate tarballs (`npm i -g cli.tgz store-kysely.tgz ...`)
 * npm makes each tarball a top-level package, so the store-kysely that a plugin's BaseCommand
 * opens stores with sits beside the CLI and cannot see the CLI's better-sqlite3 or pg.
 */
const HOST_FALLBACK_PACKAGES = ['@session-checkpoint/core', '@session-checkpoint/store-kysely', '@session-checkpoint/bundle', 'better-sqlite3', 'pg', 'kysely'] as const;

/** A plugin record that is a FIFO, socket or device (reading a FIFO would block every call forever). */
export class PluginRecordError extends Error {
  /** oclif's exit code field: printed as `CommandError`, exit 1. */
  readonly oclif = { exit: 1 };

  constructor(message: string) {
    super(message);
    this.name = 'PluginRecordError';
  }
}

/** What a non-regular file is, for messages. */
function fileKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

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
 * cannot be parsed or is a directory: oclif then reports the problem itself.
 *
 * @throws PluginRecordError when the record is a FIFO, socket or device: oclif and npm would
 *   block on it (a FIFO) or read a device.
 */
export function userPluginRoots(dir = dataDir()): string[] | undefined {
  // Where `plugins install` and `plugins link` record plugins.
  const file = join(dir, 'package.json');
  let stats;
  try {
    stats = statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (stats === undefined) return [];
  // A directory cannot block a read: oclif warns (EISDIR, shown with --verbose) and loads no plugin.
  if (stats.isDirectory()) return undefined;
  if (!stats.isFile()) {
    throw new PluginRecordError(`plugin record '${file}' is ${fileKind(stats)}, not a regular file; remove it (plugins install and plugins link write it)`);
  }
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
// Code under a plugin root always gets the host's copy of the shared packages; any other importer
// (such as a plugin being linked right now, whose root is not recorded yet) gets the host's copy
// of a shared or fallback package when its own lookup fails.
const HOOKS = `
let shared = [], fallback = [], hostUrl = '', pluginUrls = [];
export function initialize(data) { ({ shared, fallback, hostUrl, pluginUrls } = data); }
const named = (list, specifier) => list.some((name) => specifier === name || specifier.startsWith(name + '/'));
export async function resolve(specifier, context, next) {
  const isShared = named(shared, specifier);
  if (!isShared && !named(fallback, specifier)) return next(specifier, context);
  const parent = typeof context.parentURL === 'string' ? context.parentURL : '';
  if (isShared && pluginUrls.some((url) => parent.startsWith(url))) return next(specifier, { ...context, parentURL: hostUrl });
  try {
    return await next(specifier, context);
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return next(specifier, { ...context, parentURL: hostUrl });
  }
}`;

/** Set once hooks are registered: a second registration would chain a second copy. */
const REGISTERED = Symbol.for('session-checkpoint.host-modules');

/** Whether the working directory still exists (`process.cwd()` fails once it is deleted). */
function workingDirectoryExists(): boolean {
  try {
    process.cwd();
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes `@session-checkpoint/cli` and `@oclif/core` imported by plugin code resolve to the host's
 * copies, and the host's runtime packages ({@link HOST_FALLBACK_PACKAGES}) resolve from the host
 * when an importer cannot find them (ES modules; Node >= 20.6). Called on oclif's path only (the
 * fast path loads no plugin); a second call does nothing.
 *
 * Skipped when the working directory has been deleted: Node starts the hooks in a worker thread,
 * which cannot start without a working directory, and on Node 20 `module.register` then waits for
 * it forever. Built-in commands and help work without the hooks; a plugin importing the CLI fails
 * with a module-not-found error instead of hanging.
 *
 * @param hostRoot Directory of the CLI package (holds its package.json).
 * @param pluginRoots From {@link userPluginRoots}.
 * @example
 * ```ts
 * registerHostModules('/usr/lib/node_modules/@session-checkpoint/cli', userPluginRoots() ?? []);
 * ```
 */
export function registerHostModules(hostRoot: string, pluginRoots: string[]): void {
  const registry = globalThis as { [REGISTERED]?: boolean };
  if (typeof module.register !== 'function' || registry[REGISTERED] || !workingDirectoryExists()) return;
  registry[REGISTERED] = true;
  const asDir = (dir: string) => pathToFileURL(join(dir, '/')).href;
  const data = { shared: [...SHARED_PACKAGES], fallback: [...HOST_FALLBACK_PACKAGES], hostUrl: pathToFileURL(join(hostRoot, 'package.json')).href, pluginUrls: pluginRoots.map(asDir) };
  // Node >= 22.15 runs synchronous hooks on this thread: no loader thread to start and no round
  // trip per import, which on Node 20 cost a plugin command about as much as all the rest.
  const registerHooks = (module as { registerHooks?: (hooks: { resolve: SyncResolve }) => unknown }).registerHooks;
  if (typeof registerHooks === 'function') registerHooks({ resolve: inThreadResolve(data) });
  else module.register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data });
}

/** What Node's synchronous `resolve` hook gets and returns (module.registerHooks). */
type SyncResolve = (specifier: string, context: { parentURL?: string; conditions?: readonly string[] }, next: (specifier: string, context?: object) => unknown) => unknown;

/**
 * {@link HOOKS} as a synchronous hook on this thread. Unlike the loader thread's hooks these also
 * see `require()`; calls without the `import` condition pass through untouched, as before.
 */
function inThreadResolve(data: { shared: string[]; fallback: string[]; hostUrl: string; pluginUrls: string[] }): SyncResolve {
  const named = (list: string[], specifier: string) => list.some((name) => specifier === name || specifier.startsWith(`${name}/`));
  return (specifier, context, next) => {
    const isShared = named(data.shared, specifier);
    if ((!isShared && !named(data.fallback, specifier)) || !context.conditions?.includes('import')) return next(specifier, context);
    const parent = typeof context.parentURL === 'string' ? context.parentURL : '';
    if (isShared && data.pluginUrls.some((url) => parent.startsWith(url))) return next(specifier, { ...context, parentURL: data.hostUrl });
    try {
      return next(specifier, context);
    } catch (error) {
      if ((error as { code?: unknown } | undefined)?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
      return next(specifier, { ...context, parentURL: data.hostUrl });
    }
  };
}
