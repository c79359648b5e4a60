import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * A plugin that only adds commands cannot change what a built-in command does, so a built-in may
 * run on the direct path even with plugins installed. What could change one: a hook (init,
 * prerun, command_not_found, ...), a plugin command whose id or alias is a built-in's id, or
 * plugins nested in a plugin (their hooks and commands load too). This module finds out from the
 * files oclif itself would read (the plugin record in the data directory, each plugin's
 * package.json and oclif.manifest.json), without loading oclif or any plugin code. Anything it
 * cannot read or does not understand counts as "could change": oclif then runs the call as it
 * always has.
 */

/** Source files a plugin without a manifest may keep; more than this and we do not look. */
const MAX_SCANNED_FILES = 400;
const SOURCE = /\.(?:[cm]?js|[cm]?ts|tsx)$/u;
/** oclif's command file pattern (Plugin's GLOB_PATTERNS): sources, not declarations or tests. */
const NOT_A_COMMAND = /(?:\.d\.[cm]?ts|\.test\.[cm]?[jt]sx?|\.map)$/u;

type Json = Record<string, unknown>;

/** The parsed JSON object in a regular file, or `undefined` (missing, not a regular file, not a JSON object). */
function readJsonObject(path: string): Json | undefined {
  try {
    // A FIFO or device at the path would block or stream forever: only regular files are read.
    if (!statSync(path).isFile()) return undefined;
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** Regular source files under `dir` (node_modules and dot folders skipped), or `undefined` past the cap or on an error. */
function sourceFiles(dir: string, found: string[] = []): string[] | undefined {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (sourceFiles(path, found) === undefined) return undefined;
    } else if (entry.isFile() && SOURCE.test(entry.name)) {
      found.push(path);
      if (found.length > MAX_SCANNED_FILES) return undefined;
    } else if (!entry.isFile()) {
      // A symlink or special file could lead anywhere: do not guess.
      return undefined;
    }
  }
  return found;
}

/**
 * What a plugin's commands are known as: every id and alias (`names`), and the file of each
 * command id where it is known (`files`; a manifest from before oclif recorded paths has none).
 */
interface PluginCommands {
  names: string[];
  files: Map<string, string>;
}

/** The ids, aliases and files a plugin's manifest declares, or `undefined` without a usable manifest. */
function manifestCommands(root: string, version: unknown): PluginCommands | undefined {
  for (const name of ['oclif.manifest.json', '.oclif.manifest.json']) {
    const manifest = readJsonObject(join(root, name));
    if (manifest === undefined) continue;
    // oclif ignores a manifest of another version (and warns); so do we.
    if (typeof manifest.version !== 'string' || typeof version !== 'string' || manifest.version.split('-')[0] !== version.split('-')[0]) return undefined;
    const commands = manifest.commands;
    if (typeof commands !== 'object' || commands === null) return undefined;
    const found: PluginCommands = { names: [], files: new Map() };
    for (const [id, command] of Object.entries(commands as Record<string, Json>)) {
      found.names.push(id);
      for (const key of ['aliases', 'hiddenAliases']) {
        const list = command?.[key];
        if (Array.isArray(list)) found.names.push(...list.map(String));
        else if (list !== undefined) return undefined;
      }
      const path = command?.relativePath;
      if (Array.isArray(path) && path.length > 0 && path.every((part) => typeof part === 'string' && part !== '..' && part !== '')) found.files.set(id, join(root, ...(path as string[])));
    }
    return found;
  }
  return undefined;
}

/**
 * The ids and files of a plugin without a manifest, from its commands folder as oclif would find
 * them; `undefined` when aliases might be declared (oclif learns those only by loading the
 * classes) or the layout is not the plain folder form.
 */
function discoveredCommands(root: string, pjson: Json, commandsSpec: unknown): PluginCommands | undefined {
  if (typeof commandsSpec !== 'string') return undefined;
  // A base class from a dependency could declare aliases we cannot see without loading it.
  if (!isEmpty(pjson.dependencies)) return undefined;
  const files = sourceFiles(root);
  if (files === undefined) return undefined;
  const found: PluginCommands = { names: [], files: new Map() };
  const commandsDir = join(root, commandsSpec);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (text.includes('aliases')) return undefined;
    const rel = relative(commandsDir, file);
    if (rel.startsWith('..') || NOT_A_COMMAND.test(rel)) continue;
    const parts = rel.replace(SOURCE, '').split(/[\\/]/u);
    if (parts.at(-1) === 'index') parts.pop();
    const id = parts.join(':');
    found.names.push(id);
    // Two files for one id (hello.js and hello/index.js): oclif picks one; we do not guess.
    if (found.files.has(id)) found.files.delete(id);
    else found.files.set(id, file);
  }
  return found;
}

/** Where oclif finds a recorded plugin: a linked plugin's root, or the package in the data directory. */
function pluginRoot(plugin: Json, dataDir: string): string | undefined {
  if (plugin.type === 'link' && typeof plugin.root === 'string') return plugin.root;
  if (plugin.type === 'user' && typeof plugin.name === 'string' && !plugin.name.includes('..')) return join(dataDir, 'node_modules', plugin.name);
  return undefined;
}

/**
 * The commands of one recorded plugin, when it can change nothing but its own commands (no hook,
 * no nested plugins) and they can be read from files; otherwise `undefined`.
 */
function hooklessPluginCommands(plugin: unknown, dataDir: string): (PluginCommands & { root: string }) | undefined {
  if (typeof plugin !== 'object' || plugin === null) return undefined;
  const root = pluginRoot(plugin as Json, dataDir);
  if (root === undefined) return undefined;
  const pjson = readJsonObject(join(root, 'package.json'));
  if (pjson === undefined) return undefined;
  const oclif = (pjson.oclif ?? pjson['cli-engine'] ?? {}) as Json;
  if (typeof oclif !== 'object' || oclif === null) return undefined;
  if (!isEmpty(oclif.hooks) || !isEmpty(oclif.plugins) || !isEmpty(oclif.devPlugins) || !isEmpty(oclif.jitPlugins)) return undefined;
  const commands = manifestCommands(root, pjson.version) ?? (oclif.commands === undefined ? { names: [], files: new Map() } : discoveredCommands(root, pjson, oclif.commands));
  return commands === undefined ? undefined : { ...commands, root };
}

/** Whether a name is `id`, in either of oclif's spellings (`a:b` or `a b`). */
const sameId = (name: string, id: string): boolean => name === id || name.replaceAll(' ', ':') === id;

/**
 * The recorded plugins of `dataDir` (`[]` when there is no record), or `undefined` when the
 * record cannot be read (not a regular file, not JSON, no plugin list).
 */
function recordedPlugins(dataDir: string): unknown[] | undefined {
  const recordPath = join(dataDir, 'package.json');
  try {
    statSync(recordPath);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? [] : undefined;
  }
  const record = readJsonObject(recordPath);
  if (record === undefined) return undefined;
  const plugins = (record.oclif as Json | undefined)?.plugins ?? [];
  return Array.isArray(plugins) ? plugins : undefined;
}

/**
 * Whether the plugins recorded in `dataDir` (installed or linked) leave the built-in command `id`
 * as it is: none declares a hook or nested plugins, and no command id or alias of theirs is `id`.
 * Decided with file reads only (the record, each plugin's package.json, its oclif.manifest.json or,
 * without one, its source files), never by loading oclif or plugin code. Anything unreadable or
 * unusual answers `false`, and the call goes through oclif as before.
 *
 * @param id A built-in command id, e.g. `get`.
 * @param dataDir The CLI's data directory (plugin-host's `dataDir()`).
 * @example
 * ```ts
 * if (pluginsLeaveBuiltinAlone('get', dataDir())) await runDirect(argv);
 * ```
 */
export function pluginsLeaveBuiltinAlone(id: string, dataDir: string): boolean {
  const plugins = recordedPlugins(dataDir);
  return (
    plugins !== undefined &&
    plugins.every((plugin) => {
      const commands = hooklessPluginCommands(plugin, dataDir);
      return commands !== undefined && !commands.names.some((name) => sameId(name, id));
    })
  );
}

/**
 * The file of plugin command `id`, when the plugins recorded in `dataDir` make it certain which
 * file oclif would load and that nothing else would run with it: no plugin declares a hook or
 * nested plugins, exactly one plugin knows the name `id`, as a command id rather than an alias,
 * with a known JavaScript file, and that plugin has no `tsconfig.json` (oclif may run a linked
 * TypeScript plugin's sources instead of its build). Decided from files only, like
 * {@link pluginsLeaveBuiltinAlone}; `undefined` whenever anything is uncertain.
 *
 * @param id A command id that is not a built-in's, e.g. `hello`.
 * @param dataDir The CLI's data directory (plugin-host's `dataDir()`).
 * @example
 * ```ts
 * const file = pluginCommandFile('hello', dataDir()); // '/home/me/plugin-hello/src/commands/hello.js'
 * ```
 */
export function pluginCommandFile(id: string, dataDir: string): string | undefined {
  const plugins = recordedPlugins(dataDir);
  if (plugins === undefined) return undefined;
  let file: string | undefined;
  let owners = 0;
  for (const plugin of plugins) {
    const commands = hooklessPluginCommands(plugin, dataDir);
    if (commands === undefined) return undefined;
    if (!commands.names.some((name) => sameId(name, id))) continue;
    owners++;
    file = commands.files.get(id);
    if (existsSync(join(commands.root, 'tsconfig.json'))) return undefined;
  }
  return owners === 1 && file !== undefined && /\.[cm]?js$/u.test(file) ? file : undefined;
}
