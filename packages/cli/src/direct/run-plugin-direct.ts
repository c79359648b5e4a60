import { pathToFileURL } from 'node:url';
import { COMMAND_BASE } from '../command-base.js';
import { dataDir } from '../plugin-host.js';
import { directFlagsOf } from './direct-flags.js';
import { FLAG_TABLE } from './flag-table.js';
import { parseDirectArgv } from './parse-direct-argv.js';
import { pluginCommandFile } from './plugin-manifests.js';
import { pluginConfig } from './plugin-config.js';

/*
 * The plugin runner: a plugin's own command started without oclif, as the direct path runs a
 * built-in. oclif's configuration (reading every plugin, globbing their commands) and its
 * modules were most of a plugin command's start-up (docs/decisions/0004-plugin-commands-on-our-own-command-class.md). It runs only
 * when the outcome cannot differ from oclif's: the plugin files say which file oclif would load
 * and that no hook would run (plugin-manifests.ts), the class is built on BaseCommand (from any
 * copy of this package) and has not opted out, and its command line parses beyond doubt.
 * Everything else goes to oclif, which then does exactly what it always has.
 */

/** The statics the runner reads of a loaded command class. */
interface LoadedCommand {
  [COMMAND_BASE]?: unknown;
  id?: string;
  args?: Record<string, unknown>;
  baseFlags?: Record<string, Readonly<Record<string, unknown>>>;
  flags?: Record<string, Readonly<Record<string, unknown>>>;
  strict?: boolean;
  fastStart?: boolean;
  run(argv: string[], config: unknown): Promise<unknown>;
}

/**
 * Runs a plugin's own command without oclif when that cannot change its outcome. Returns the
 * exit code, or `undefined` when the call must go to oclif (before anything has run, though the
 * command's module may have been loaded: oclif then loads the same instance).
 *
 * @param argv Arguments after the program name.
 * @param root The CLI package's root folder.
 * @param load Imports an ES module by URL (the caller's native `import()`; a bundler may not
 *   leave one here).
 * @example
 * ```ts
 * const code = (await runPluginDirect(argv, root, (url) => import(url))) ?? (await runOclif(argv));
 * ```
 */
export async function runPluginDirect(argv: readonly string[], root: string, load: (url: string) => Promise<{ default?: unknown }>): Promise<number | undefined> {
  const [id, ...rest] = argv;
  // Outside the bundle the built-in table is empty: without it no id is known not to be a built-in's.
  if (id === undefined || !/^[a-z0-9][\w.-]*$/iu.test(id) || Object.keys(FLAG_TABLE).length === 0 || Object.hasOwn(FLAG_TABLE, id) || id === 'plugins' || id === 'help') return undefined;
  // oclif answers these itself, whatever the command declares.
  if (rest.some((arg) => arg === '--help' || arg === '-h' || arg === '--version')) return undefined;
  const file = pluginCommandFile(id, dataDir());
  if (file === undefined) return undefined;
  let Command: LoadedCommand | undefined;
  try {
    Command = (await load(pathToFileURL(file).href)).default as LoadedCommand | undefined;
  } catch {
    // oclif reports a module that fails to load in its own words: let it, from the same import.
    return undefined;
  }
  if (Command === undefined || typeof (Command as unknown) !== 'function' || Command[COMMAND_BASE] !== true || Command.fastStart === false) return undefined;
  if (Object.keys(Command.args ?? {}).length > 0 || Command.strict === false) return undefined;
  const flags = directFlagsOf({ ...Command.baseFlags, ...Command.flags });
  if (flags === undefined || parseDirectArgv(rest, flags) === undefined) return undefined;
  // oclif gives every class it loads its id (Plugin#findCommand); so does the runner.
  Command.id = id;
  await Command.run([...rest], pluginConfig(root));
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}
