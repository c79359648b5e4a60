import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '@oclif/core';
import { UsageError } from '../errors/usage-error.js';
import { cleanOclifMessage } from '../errors/clean-oclif-message.js';
import { packageRoot } from '../package-root.js';
import { successJson, writeError, writeJson } from '../output/write-json.js';
import { registerHostModules, userPluginRoots } from '../plugin-host.js';
import { expandHome } from '../input/expand-home.js';
import { fileSpecPath, looksLocal, localSource } from './local-plugin-source.js';

/*
 * `plugins ...` with the CLI's output contract. @oclif/plugin-plugins prints text, runs npm with
 * its output on stdout, and some of its commands print nothing at all. Its command classes still
 * do the work (so flags, aliases and behaviour are exactly plugin-plugins 5.5.2's), run through
 * oclif's Config#runCommand with stdout captured; the result printed is one JSON document: the
 * command's own JSON result (`plugins inspect`), or what oclif's Config lists before and after it
 * ran (never plugin-plugins' files). Help (`--help`, `-h`) is left to oclif's path.
 */

const PLUGIN_PLUGINS = '@oclif/plugin-plugins';

/** Arguments before `--` (after it, words are values). */
function options(args: readonly string[]): readonly string[] {
  const end = args.indexOf('--');
  return end === -1 ? args : args.slice(0, end);
}

/** Positional arguments (not flags), before `--`, then everything after it. */
function positionals(args: readonly string[]): string[] {
  const end = args.indexOf('--');
  const before = (end === -1 ? args : args.slice(0, end)).filter((arg) => !arg.startsWith('-'));
  return end === -1 ? before : [...before, ...args.slice(end + 1)];
}

/** Collects what is written to stdout until `restore()`. */
function captureStdout(): { text(): string; restore(): void } {
  const original = process.stdout.write;
  const chunks: string[] = [];
  process.stdout.write = ((chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  }) as typeof process.stdout.write;
  return { text: () => chunks.join(''), restore: () => void (process.stdout.write = original) };
}

/** npm's own error lines from captured output (`npm error ...`, `npm ERR! ...`), at most ten. */
function npmErrorLines(output: string): string[] {
  return output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^npm (error|ERR!)/.test(line) && line.replace(/^npm (error|ERR!)\s*/, '') !== '')
    .slice(0, 10);
}

/**
 * The error to print for a failed `plugins` command: parse errors are usage errors (exit 2);
 * everything plugin-plugins raises itself (npm failed, a plugin that is not installed, an invalid
 * plugin) is a `CommandError` with exit 1 (oclif's default for them would be 2), npm's failure
 * naming npm's own error lines instead of the path of npm's script.
 */
function pluginsError(error: unknown, output: string): unknown {
  // plugin-plugins reports some failures with a plain Error (`inspect` of a plugin that is not
  // installed): still its report about a plugin, so a CommandError like the others.
  if (error instanceof Error && error.constructor === Error && !('code' in error) && !('oclif' in error)) return commandError(cleanOclifMessage(error.message).replace(/^(\S+) not installed$/u, "plugin '$1' is not installed"));
  if (error === null || typeof error !== 'object' || !('oclif' in error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  if ('parse' in error) return new UsageError(cleanOclifMessage(message));
  const npm = /npm-cli\.js (\w+) .* exited with code (\d+)$/s.exec(message) ?? /\bnpm (\w+) .* exited with code (\d+)$/s.exec(message);
  const text = npm ? [`npm ${npm[1]} failed with exit code ${npm[2]}`, ...npmErrorLines(output)].join('; ') : cleanOclifMessage(message);
  return commandError(text);
}

/** An error printed as `CommandError`, exit 1 (to-error-json.ts reads oclif's exit field). */
function commandError(message: string): Error {
  return Object.assign(new Error(message), { oclif: { exit: 1 } });
}

/**
 * `plugins link [dir]` needs a plugin folder: without a package.json there, oclif fails with a
 * dump of its internal options object. Said plainly instead, before anything runs.
 */
function checkLinkTarget(arg: string | undefined): void {
  const dir = resolve(expandHome(arg ?? '.'));
  if (existsSync(join(dir, 'package.json'))) return;
  const hint = arg === undefined ? ' (give the plugin folder: plugins link <dir>)' : '';
  throw commandError(`no plugin to link at '${dir}': it has no package.json${hint}`);
}

/** Code-unit order, the same in every locale. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One plugin as the `plugins` commands print it; `type` is `user` (installed), `link` (linked) or `core` (the CLI's own). */
interface PluginJson {
  name: string;
  /** From the plugin's package.json; `null` when oclif has none. */
  version: string | null;
  type: string;
  /** The folder the plugin is loaded from. */
  root: string;
}

/** A plugin as printed: the fields of oclif's loaded plugin (Config#getPluginsList). */
const describe = (plugin: { name: string; version?: string; type: string; root: string }): PluginJson => ({ name: plugin.name, version: plugin.version ?? null, type: plugin.type, root: plugin.root });

/**
 * The installed and linked plugins oclif loaded (also the CLI's own with `core`), sorted: oclif
 * loads plugins concurrently, so its list's order changes between calls.
 */
function pluginsOf(config: Config, core = false): PluginJson[] {
  return config
    .getPluginsList()
    .filter((plugin) => !plugin.parent && plugin.root !== config.root && (plugin.type === 'user' || plugin.type === 'link' || (core && plugin.type === 'core')))
    .map(describe)
    .sort((a, b) => compareText(a.name, b.name) || compareText(a.type, b.type) || compareText(a.root, b.root));
}

/**
 * The JSON result of command `id`, from the plugins oclif loaded before it ran and those a fresh
 * `Config` loads after it (`plugins inspect` returns its own JSON result).
 */
function resultOf(id: string, args: string[], before: PluginJson[], after: PluginJson[], returned: unknown): unknown {
  const key = (plugin: PluginJson) => `${plugin.type}\u0000${plugin.name}\u0000${plugin.root}`;
  const [had, has] = [new Set(before.map(key)), new Set(after.map(key))];
  const removed = before.filter((plugin) => !has.has(key(plugin)));
  const users = after.filter((plugin) => plugin.type === 'user');
  switch (id) {
    case 'plugins:install': {
      const wanted = positionals(args);
      return { installed: users.filter((plugin) => !had.has(key(plugin)) || wanted.some((spec) => spec === plugin.name || spec.startsWith(`${plugin.name}@`))) };
    }
    case 'plugins:link': {
      const path = resolve(positionals(args)[0] ?? '.');
      return { linked: after.find((plugin) => plugin.type === 'link' && (path === plugin.root || path.startsWith(join(plugin.root, '/')))) ?? null };
    }
    case 'plugins:uninstall':
      return { uninstalled: removed };
    case 'plugins:update':
      return { updated: users };
    case 'plugins:reset':
      return { removed, reinstalled: after };
    case 'plugins:inspect':
      return (Array.isArray(returned) ? returned : []).map((plugin: { name: string; version?: string; type: string; root: string; commandIDs?: string[]; deps?: unknown }) => ({
        ...describe(plugin),
        commands: [...(plugin.commandIDs ?? [])].sort(),
        dependencies: plugin.deps ?? {},
      }));
    default:
      return returned ?? null;
  }
}

/**
 * Runs `plugins ...` (list, install, link, uninstall, update, inspect, reset and their aliases)
 * and prints one JSON document: `{"ok": true, "result": ...}` or the error object. npm's output
 * and plugin-plugins' progress go to stderr, which shows them only with `--verbose`; when npm
 * fails, its error lines are in the error message. Returns the exit code, or `undefined` when the
 * call is not one of these (help, an unknown `plugins` subcommand, or a `plugins` command a user
 * plugin provides): oclif runs it.
 *
 * @param argv Arguments after the program name (`argv[0]` is `plugins`).
 * @param bin `import.meta.url` (or path) of the CLI package's bin script, as given to `main`.
 * @example
 * ```ts
 * const code = argv[0] === 'plugins' ? await runPluginsCommand(argv, import.meta.url) : undefined;
 * ```
 */
export async function runPluginsCommand(argv: readonly string[], bin: string): Promise<number | undefined> {
  if (argv[0] !== 'plugins' || options(argv).some((arg) => arg === '--help' || arg === '-h')) return undefined;
  const host = packageRoot(bin);
  if (host === undefined) return undefined;
  try {
    registerHostModules(host, userPluginRoots() ?? []);
    const { Config } = await import('@oclif/core');
    const config = await Config.load(host);
    const rest = argv.slice(1);
    const word = rest[0] !== undefined && !rest[0].startsWith('-') ? rest[0] : undefined;
    const sub = word === undefined ? undefined : config.findCommand(`plugins:${word}`);
    // `plugins frobnicate`: oclif's command_not_found hook names the valid commands.
    if (word !== undefined && sub === undefined) return undefined;
    const command = sub ?? config.findCommand('plugins');
    if (command === undefined || command.pluginName !== PLUGIN_PLUGINS) return undefined;
    // An alias (`plugins add`, `plugins unlink`, `plugins remove`) is found under its own id.
    const id = config.commands.find((entry) => entry.pluginName === PLUGIN_PLUGINS && entry.aliases.includes(command.id))?.id ?? command.id;
    let args = sub === undefined ? rest : rest.slice(1);
    // --verbose is the CLI's flag on every command; plugin-plugins declares it only on some.
    if (command.flags.verbose === undefined) args = args.filter((arg, index) => arg !== '--verbose' || (args.indexOf('--') !== -1 && index > args.indexOf('--')));
    if (id === 'plugins:install') {
      args = args.map((arg) => {
        const path = fileSpecPath(arg) ?? (looksLocal(arg) ? arg : undefined);
        if (path === undefined) return arg;
        const source = localSource(path);
        if (source.directory) process.env.npm_config_install_links = 'true';
        return source.spec;
      });
    }
    if (id === 'plugins:link') checkLinkTarget(positionals(args)[0]);
    const before = pluginsOf(config);
    const capture = captureStdout();
    let returned: unknown;
    try {
      await config.runHook('init', { argv: args, id: command.id });
      returned = await config.runCommand(command.id, args);
    } catch (error) {
      capture.restore();
      process.stderr.write(capture.text());
      process.exitCode = undefined;
      return writeError(pluginsError(error, capture.text()));
    }
    capture.restore();
    process.stderr.write(capture.text());
    process.exitCode = undefined;
    if (id === 'plugins') writeJson(successJson(pluginsOf(config, options(args).includes('--core'))));
    else writeJson(successJson(resultOf(id, args, before, id === 'plugins:inspect' ? [] : pluginsOf(await Config.load(host)), returned)));
    return 0;
  } catch (error) {
    return writeError(error);
  }
}
