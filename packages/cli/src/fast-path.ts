import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from '@oclif/core';

/*
 * Start-up is what a CLI call costs: oclif's full configuration (root plugin, plugin-help,
 * plugin-plugins, user plugins, their manifests) and its ~160 modules take most of a call. For a
 * built-in command with no user plugin installed none of that can change the outcome, so
 * bin/run.js runs the command class directly with the few configuration fields a command reads.
 * Everything else (help, --version, plugins, unknown or unusual argv) goes through oclif.
 */

/** The built-in commands the fast path runs (every command of src/commands). */
const COMMANDS: Record<string, () => Promise<{ default: typeof Command }>> = {
  create: () => import('./commands/create.js'),
  delete: () => import('./commands/delete.js'),
  export: () => import('./commands/export.js'),
  get: () => import('./commands/get.js'),
  history: () => import('./commands/history.js'),
  import: () => import('./commands/import.js'),
  init: () => import('./commands/init.js'),
  list: () => import('./commands/list.js'),
  prune: () => import('./commands/prune.js'),
  sessions: () => import('./commands/sessions.js'),
  verify: () => import('./commands/verify.js'),
};

const BIN = 'session-checkpoint';

/** Ids of the commands the fast path can run (a command missing here still works, through oclif). */
export const FAST_COMMAND_IDS: readonly string[] = Object.keys(COMMANDS);

/**
 * Whether oclif would dispatch `argv` to the built-in command `argv[0]` with no help, version or
 * topic handling: a known id followed by nothing, or by a flag (oclif's id collation stops at the
 * first flag or `x=y` word; a bare word would make it look for a `get:word` command).
 */
function isPlainCall(argv: string[]): boolean {
  const [id, next] = argv;
  if (id === undefined || !Object.hasOwn(COMMANDS, id)) return false;
  if (next !== undefined && !next.startsWith('-') && !next.includes('=')) return false;
  for (const arg of argv) {
    if (arg === '--') break;
    if (arg === '--help' || arg === '-h') return false;
  }
  return true;
}

/**
 * The nearest directory at or above `bin` (a path or file URL) holding a package.json: what
 * oclif calls the root.
 */
export function packageRoot(bin: string): string | undefined {
  const path = bin.startsWith('file:') ? fileURLToPath(bin) : bin;
  for (let dir = path, depth = 0; depth < 4; dir = dirname(dir), depth++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return undefined;
}

/** The configuration fields a built-in command reads (name, bin, user agent, hooks, id lookup). */
function minimalConfig(root: string, version: string): Command['config'] {
  const name = '@session-checkpoint/cli';
  const config = {
    _base: `${name}@${version}`,
    arch: process.arch,
    bin: BIN,
    commandIDs: FAST_COMMAND_IDS,
    dirname: BIN,
    findCommand: () => undefined,
    name,
    pjson: { name, oclif: { bin: BIN, topicSeparator: ' ' }, version },
    platform: process.platform,
    root,
    runHook: async () => ({ failures: [], successes: [] }),
    scopedEnvVar: (key: string) => process.env[`SESSION_CHECKPOINT_${key}`],
    scopedEnvVarKey: (key: string) => `SESSION_CHECKPOINT_${key}`,
    scopedEnvVarKeys: (key: string) => [`SESSION_CHECKPOINT_${key}`],
    topicSeparator: ' ',
    userAgent: `${name}/${version} ${process.platform}-${process.arch} node-${process.version}`,
    version,
  };
  return config as unknown as Command['config'];
}

/**
 * Runs a built-in command without loading oclif's configuration, when that cannot change the
 * outcome. Returns `undefined` when the call must go through oclif. Call it only when no user
 * plugin is installed (`main` checks).
 *
 * @param argv Arguments after the program name.
 * @param bin `import.meta.url` (or path) of the CLI package's bin script, as given to `main`.
 * @example
 * ```ts
 * const code = (await runFast(argv, import.meta.url)) ?? (await run(argv, import.meta.url));
 * ```
 */
export async function runFast(argv: string[], bin: string): Promise<number | undefined> {
  if (!isPlainCall(argv)) return undefined;
  const root = packageRoot(bin);
  if (root === undefined) return undefined;
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const id = argv[0]!;
  const { default: CommandClass } = await COMMANDS[id]!();
  // What oclif's Config#runCommand does once it has the class (Command.run would load a full config).
  CommandClass.id = id;
  const command = new (CommandClass as unknown as new (argv: string[], config: Command['config']) => Command)(argv.slice(1), minimalConfig(root, version));
  await (command as unknown as { _run(): Promise<unknown> })._run();
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}
