/**
 * The CLI's promise: stdout carries exactly one JSON document and stderr stays empty unless the
 * user asks for more with `--verbose` (or `SESSION_CHECKPOINT_VERBOSE=1`). Libraries do not know
 * that promise: oclif warns about unreadable plugin folders or linked ESM plugins through
 * `console.error`, drivers call `process.emitWarning` (pg's `SECURITY WARNING` for
 * `sslmode=require`), and Node prints every warning on stderr by default. So the guard sits where
 * all of them end up: the `warning` event and `process.stderr.write`.
 */

/** The environment variable that turns verbose output on, like `--verbose`. */
export const VERBOSE_ENV = 'SESSION_CHECKPOINT_VERBOSE';

/**
 * State lives on `globalThis` under a registered symbol, not in module variables: the commands
 * are bundled into chunks (dist/bundle) that carry their own copy of this module, and a plugin
 * may bundle another; all of them must see the one guard that bin/run.cjs installed.
 */
const STATE = Symbol.for('session-checkpoint.stderr-guard');

interface GuardState {
  verbose: boolean;
}

function state(): GuardState | undefined {
  return (globalThis as { [STATE]?: GuardState })[STATE];
}

/**
 * True when the user asked for diagnostics on stderr (`--verbose` or `SESSION_CHECKPOINT_VERBOSE=1`).
 * Progress and warnings are shown only then.
 *
 * @example
 * ```ts
 * if (isVerbose()) process.stderr.write('opening store\n');
 * ```
 */
export function isVerbose(): boolean {
  return state()?.verbose ?? false;
}

/** `--verbose` before any `--` (after it, arguments are values, not flags). */
function wantsVerbose(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  const end = argv.indexOf('--');
  const flags = end === -1 ? argv : argv.slice(0, end);
  return flags.includes('--verbose') || env[VERBOSE_ENV] === '1';
}

/** One plain line per warning: no `(node:1234)` prefix, no "use --trace-warnings" hint. */
function printWarning(warning: Error): void {
  const name = warning.name && warning.name !== 'Warning' ? `${warning.name}: ` : '';
  process.stderr.write(`warning: ${name}${warning.message}\n`);
}

/**
 * Installs the guard for this process (idempotent). Without verbose output, warnings are
 * dropped and anything written to stderr is discarded; with it, warnings are printed as one
 * plain line each and stderr works as usual.
 *
 * @param argv The CLI arguments (looked at for `--verbose`).
 * @param env Default is `process.env`.
 * @example
 * ```ts
 * guardStderr(process.argv.slice(2));
 * ```
 */
export function guardStderr(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): void {
  const existing = state();
  if (existing !== undefined) {
    existing.verbose = wantsVerbose(argv, env);
    return;
  }
  const guard: GuardState = { verbose: wantsVerbose(argv, env) };
  (globalThis as { [STATE]?: GuardState })[STATE] = guard;
  // Node's own warning printer is a 'warning' listener; replacing it keeps `(node:PID)` noise off stderr.
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error) => {
    if (guard.verbose) printWarning(warning);
  });
  const original = process.stderr.write.bind(process.stderr);
  const guarded = (chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
    if (guard.verbose) return (original as (...args: unknown[]) => boolean)(chunk, encoding, callback);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  };
  process.stderr.write = guarded as typeof process.stderr.write;
}
