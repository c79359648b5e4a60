import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBuiltin } from './command/run-command.js';
import { BUILTINS } from './commands/index.js';
import { UsageError } from './errors/usage-error.js';
import { packageRoot } from './package-root.js';
import { registerHostModules, userPluginRoots } from './plugin-host.js';
import { holdStrayFailure, resetDocumentLatch } from './output/one-document.js';
import { guardStderr } from './output/stderr-guard.js';
import { writeError, writeResult } from './output/write-json.js';

/**
 * The `--version` result, from the CLI's own package.json: `{ name, version, node, platform,
 * userAgent }`, the user agent being the line oclif printed before the version was JSON
 * (`@session-checkpoint/cli/0.1.0 linux-x64 node-v20.19.0`).
 */
function versionResult(root: string): Record<string, string> {
  const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  const platform = `${process.platform}-${process.arch}`;
  return { name, version, node: process.version, platform, userAgent: `${name}/${version} ${platform} node-${process.version}` };
}

/** `--help` or `-h` before any `--`: oclif's help, as oclif decides it. */
function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/**
 * Runs the CLI and returns the exit code. Whatever happens (a parse error, an unknown command,
 * a plugin command that throws, an error raised outside any command, a driver failing late)
 * exactly one JSON document is printed on stdout, except for help, which prints text as usual
 * (`--version` prints `{"ok": true, "result": {"name", "version", "node", "platform",
 * "userAgent"}}`). Nothing is written to stderr unless `--verbose` (or
 * `SESSION_CHECKPOINT_VERBOSE=1`) asks for warnings and progress there.
 *
 * A built-in command always runs on its own route (command/run-command.ts), which never loads
 * oclif; `plugins ...` prints JSON (plugins-json/); help, plugin commands and unknown commands
 * go to oclif (docs/cli.md, "How a command runs").
 *
 * @param argv Arguments after the program name.
 * @param root `import.meta.url` (or a path) of the CLI package's bin script, for oclif.
 * @example
 * ```ts
 * process.exitCode = await main(process.argv.slice(2), import.meta.url);
 * ```
 */
export async function main(argv: string[], root: string): Promise<number> {
  guardStderr(argv);
  resetDocumentLatch();
  // Failures outside any command's flow (a driver's 'error' event) still get the contract, but
  // never a second document: while a command runs they wait for its outcome (run-command.ts),
  // and once the run's document is out they are dropped.
  const late = (error: unknown): void => {
    if (!holdStrayFailure(error)) process.exitCode = writeError(error);
  };
  process.on('uncaughtException', late);
  process.on('unhandledRejection', late);
  try {
    // oclif would print the root help and exit 0; the reference treats this as a usage error.
    if (argv.length === 0) throw new UsageError('the following arguments are required: command');
    // oclif would print its user agent as text; the version is one JSON document like the rest.
    const versionRoot = argv[0] === '--version' ? packageRoot(root) : undefined;
    if (versionRoot !== undefined) {
      writeResult(versionResult(versionRoot));
      return 0;
    }
    const help = wantsHelp(argv);
    // A command of a topic (`keys new`) has the id `keys:new`, as in oclif.
    const builtin = help ? undefined : BUILTINS.find((command) => command.id === argv[0] || command.id === `${argv[0]}:${argv[1]}`);
    if (builtin !== undefined) return await runBuiltin(builtin, argv.slice(builtin.id.split(':').length));
    // A built-in topic without one of its commands (`keys`, `keys old`): a usage error, not oclif's topic help as text.
    const topic = help ? [] : BUILTINS.filter((command) => command.id.startsWith(`${argv[0]}:`)).map((command) => `'${command.id.split(':')[1]}'`);
    if (topic.length > 0) throw new UsageError(`argument ${argv[0]}: ${argv[1] === undefined ? 'a command is required' : `invalid choice: '${argv[1]}'`} (choose from ${topic.join(', ')})`);
    // `plugins ...` prints JSON too (src/plugins-json); help for it stays with oclif.
    const plugins = argv[0] === 'plugins' && !help ? await (await import('./plugins-json/run-plugins-command.js')).runPluginsCommand(argv, root) : undefined;
    if (plugins !== undefined) return plugins;
    // Plugins get the host's packages (plugin-host.ts).
    const host = packageRoot(root);
    const pluginRoots = host === undefined ? [] : (userPluginRoots() ?? []);
    if (host !== undefined && pluginRoots.length > 0) registerHostModules(host, pluginRoots);
    // The subpath, not '@oclif/core': the bundle keeps it external, so plugin commands loaded by
    // oclif share the one copy in node_modules.
    const { run } = await import('@oclif/core/run');
    await run(argv, root);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    return writeError(error);
  }
}
