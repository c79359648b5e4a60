import type { CheckpointStore } from '@session-checkpoint/core';
import type { CommandAction, CommandContext } from '../actions/command-context.js';
import { writeError, writeResult } from '../output/write-json.js';
import { openStore } from '../store/open-store.js';
import { selectStore, type StoreSelection } from '../store/store-selection.js';

/*
 * The one lifecycle of every command: the built-in commands on the direct path, and every command
 * built on BaseCommand (built-ins and plugins) on oclif's path. Changing how a command runs means
 * changing this file.
 */

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
 * while closing is reported instead of an `"ok": true` that would hide it. Never throws.
 *
 * @example
 * ```ts
 * const code = await runCommand({ parse: async () => ({ id: 7 }), action: getCheckpoint });
 * ```
 */
export async function runCommand<F>(run: CommandRun<F>): Promise<number> {
  const stores: CheckpointStore[] = [];
  const closeAll = () => Promise.all(stores.splice(0).map((store) => store.close()));
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
    const { result } = run.pending?.() ?? { result: returned };
    if (result !== undefined) writeResult(result);
    return 0;
  } catch (error) {
    await closeAll().catch(() => undefined);
    return writeError(error);
  }
}
