/**
 * The CLI's contract is one JSON document on stdout per run, whatever happens. A run can fail more
 * than once: a command's error is printed, and then a driver emits a late `'error'` event (a
 * PostgreSQL connection killed under it) that reaches the process-wide handler. This latch records
 * that the run's document has been written, so the late handler (and any second writer) stays
 * silent instead of printing a second document.
 *
 * State lives on `globalThis` under a registered symbol: the oclif path loads the commands from
 * their own bundle chunks, each with its own copy of this module, and they must share the latch
 * with `main`.
 */

const STATE = Symbol.for('session-checkpoint.one-document');

interface LatchState {
  written: boolean;
  /** A command's lifecycle is running: failures from elsewhere wait for its outcome. */
  running: boolean;
  /** The first such failure, kept until the command ends. */
  held: { error: unknown } | undefined;
}

function state(): LatchState {
  const holder = globalThis as { [STATE]?: LatchState };
  return (holder[STATE] ??= { written: false, running: false, held: undefined });
}

/**
 * Starts a new run: no document written yet. `main` calls it once per run (the test batch runner
 * runs many in one process).
 *
 * @example
 * ```ts
 * resetDocumentLatch();
 * ```
 */
export function resetDocumentLatch(): void {
  Object.assign(state(), { written: false, running: false, held: undefined });
}

/**
 * Marks a command's lifecycle as running (`true`) or ended (`false`). While it runs, a failure
 * raised outside it (an unhandled driver `'error'`) is held rather than printed: the command's own
 * outcome, typically the typed error of the same cause, is the run's document.
 *
 * @example
 * ```ts
 * setCommandRunning(true);
 * ```
 */
export function setCommandRunning(running: boolean): void {
  state().running = running;
}

/**
 * Reports a failure raised outside the command's own flow. Returns `true` when it is taken care
 * of (held for a running command, or dropped because the run's document is out); `false` when
 * the caller must print it as the run's document.
 *
 * @example
 * ```ts
 * process.on('uncaughtException', (error) => { if (!holdStrayFailure(error)) writeError(error); });
 * ```
 */
export function holdStrayFailure(error: unknown): boolean {
  const latch = state();
  if (latch.written) return true;
  if (!latch.running) return false;
  latch.held ??= { error };
  return true;
}

/**
 * The failure held while the command ran (see {@link holdStrayFailure}), once; `undefined` when
 * none.
 *
 * @example
 * ```ts
 * const stray = takeStrayFailure();
 * ```
 */
export function takeStrayFailure(): { error: unknown } | undefined {
  const latch = state();
  const held = latch.held;
  latch.held = undefined;
  return held;
}

/**
 * Claims the run's one document. Returns `true` the first time in a run, `false` afterwards: the
 * caller then writes nothing.
 *
 * @example
 * ```ts
 * if (claimDocument()) process.stdout.write(text);
 * ```
 */
export function claimDocument(): boolean {
  const latch = state();
  if (latch.written) return false;
  latch.written = true;
  return true;
}
