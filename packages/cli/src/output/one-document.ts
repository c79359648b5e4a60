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
}

function state(): LatchState {
  const holder = globalThis as { [STATE]?: LatchState };
  return (holder[STATE] ??= { written: false });
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
  state().written = false;
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

/**
 * Whether the run's document has been written.
 *
 * @example
 * ```ts
 * if (!documentWritten()) writeError(error);
 * ```
 */
export function documentWritten(): boolean {
  return state().written;
}
