import { UsageError } from './errors/usage-error.js';
import { runDirect } from './direct/run-direct.js';
import { packageRoot, runFast } from './fast-path.js';
import { registerHostModules, userPluginRoots } from './plugin-host.js';
import { guardStderr } from './output/stderr-guard.js';
import { writeError } from './output/write-json.js';

/**
 * Runs the CLI and returns the exit code. Whatever happens (a parse error, an unknown command,
 * a plugin command that throws, an error raised outside any command) exactly one JSON document
 * is printed on stdout, except for `--help` and `--version`, which print text as usual. Nothing is
 * written to stderr unless `--verbose` (or `SESSION_CHECKPOINT_VERBOSE=1`) asks for warnings and
 * progress there.
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
  // Late failures (a driver's 'error' event after the command finished) still get the contract.
  const late = (error: unknown): void => {
    process.exitCode = writeError(error);
  };
  process.on('uncaughtException', late);
  process.on('unhandledRejection', late);
  try {
    // oclif would print the root help and exit 0; the reference treats this as a usage error.
    if (argv.length === 0) throw new UsageError('the following arguments are required: command');
    // `plugins ...` prints JSON too (src/plugins-json); help for it stays with oclif.
    const plugins = argv[0] === 'plugins' ? await (await import('./plugins-json/run-plugins-command.js')).runPluginsCommand(argv, root) : undefined;
    if (plugins !== undefined) return plugins;
    // A user plugin may override a built-in command or add hooks: then every call goes to oclif.
    const pluginRoots = userPluginRoots();
    if (process.platform !== 'win32' && pluginRoots?.length === 0) {
      const shortcut = (await runDirect(argv)) ?? (await runFast(argv, root));
      if (shortcut !== undefined) return shortcut;
    }
    // The subpath, not '@oclif/core': scripts/bundle.mjs inlines oclif into the fast path's
    // chunks but keeps this import external, so commands loaded by oclif share its copy.
    const host = packageRoot(root);
    if (host !== undefined) registerHostModules(host, pluginRoots ?? []);
    const { run } = await import('@oclif/core/run');
    await run(argv, root);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    return writeError(error);
  }
}
