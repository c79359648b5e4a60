import type { CheckpointStore } from '@session-checkpoint/core';
import type { CommandAction, CommandContext } from '../actions/command-context.js';
import { setCommandRunning, takeStrayFailure } from '../output/one-document.js';
import { writeError, writeResult } from '../output/write-json.js';
import { openStore } from '../store/open-store.js';
import { selectStore, type StoreSelection } from '../store/store-selection.js';

/*
 * The one lifecycle of every command: the built-in commands on the direct path, and every command
 * built on BaseCommand (built-ins and plugins) on oclif's path. Changing how a command runs means
 * changing this file.
 */

/** A failure held while the command ran is a warning: the command's own outcome is the document. */
function warnStray(): void {
  const stray = takeStrayFailure();
  if (stray !== undefined) process.emitWarning(`while the command ran: ${stray.error instanceof Error ? stray.error.message : String(stray.error)}`);
}

/** How {@link runCommand} gets a command's flags and its work. */
export interface CommandRun<F> {
  /** Parses the command line; a thrown error is printed as the JSON error (usage errors exit 2). */
  parse(): Promise<F>;
  /** The command's work, given the parsed flags and store access. */
  action: CommandAction<F>;
  /**
   * A result recorded outside the return value (BaseCommand#respond); printed instead of the
   * return value when set. Default: none.
   */
  pending?: () => { result: unknown } | undefined;
}

/**
 * Runs one command: parse, run the action with store access, close every store it opened, then
 * print exactly one JSON document (the result, or the error) and return the exit code. A failure
 * while closing is reported instead of an `"ok": true` that would hide it. A failure raised
 * outside the command while it runs (a driver's unhandled `'error'` event, reported by `main`'s
 * process handlers) gives way to the command's own outcome, which is what the command finished
 * with (a killed connection makes its query fail too); the other is a warning, shown with
 * `--verbose`. Never throws.
 *
 * @example
 * ```ts
 * const code = await runCommand({ parse: async () => ({ id: 7 }), action: getCheckpoint });
 * ```
 */
export async function runCommand<F>(run: CommandRun<F>): Promise<number> {
  const stores: CheckpointStore[] = [];
  const closeAll = () => Promise.all(stores.splice(0).map((store) => store.close()));
  setCommandRunning(true);
  try {
    const flags = await run.parse();
    let selection: StoreSelection | undefined;
    const storeSelection = (): StoreSelection => (selection ??= selectStore(flags as { store?: string; 'database-url'?: string }));
    const context: CommandContext<F> = {
      flags,
      storeSelection,
      openStore: async (options) => {
        const store = await openStore(storeSelection(), options);
        stores.push(store);
        return store;
      },
    };
    const returned = await run.action(context);
    await closeAll();
    warnStray();
    const { result } = run.pending?.() ?? { result: returned };
    if (result !== undefined) writeResult(result);
    return 0;
  } catch (error) {
    await closeAll().catch(() => undefined);
    warnStray();
    return writeError(error);
  } finally {
    setCommandRunning(false);
  }
}
