import type { CheckpointStore } from '@session-checkpoint/core';
import type { CommandContext } from '../actions/command-context.js';
import { successJson, writeError, writeJson } from '../output/write-json.js';
import { openStore } from '../store/open-store.js';
import { selectStore, type StoreSelection } from '../store/store-selection.js';
import { DIRECT_BASE_FLAGS, DIRECT_COMMANDS } from './direct-commands.js';
import { parseDirectArgv } from './parse-direct-argv.js';

/*
 * The direct path: `get`, `list` and `create`, the calls scripts and agent loops make most, run
 * without loading oclif at all (its parser, command class and their dependencies are about half
 * of a call's start-up). It runs only when the outcome cannot differ from oclif's: `main` calls it
 * only when no user plugin is installed (a plugin may override a command or add hooks), and it
 * declines argv that does not parse beyond doubt (parse-direct-argv.ts). Everything else goes on
 * to the fast path and oclif.
 */

/**
 * Runs `get`, `list` or `create` without oclif when the argv parses beyond doubt. Returns the
 * exit code, or `undefined` when the call must go on to the other paths. Call it only when no
 * user plugin is installed (`main` checks).
 *
 * @param argv Arguments after the program name.
 * @example
 * ```ts
 * const code = (await runDirect(argv)) ?? (await runFast(argv, bin)) ?? (await runOclif(argv));
 * ```
 */
export async function runDirect(argv: readonly string[]): Promise<number | undefined> {
  const [id, ...rest] = argv;
  if (id === undefined || !Object.hasOwn(DIRECT_COMMANDS, id)) return undefined;
  const command = DIRECT_COMMANDS[id]!;
  const flags = parseDirectArgv(rest, { ...DIRECT_BASE_FLAGS, ...command.flags });
  if (flags === undefined) return undefined;
  await runAction(await command.load(), flags);
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}

/**
 * What BaseCommand#_run does around `run()`: run the action, close every store it opened, then
 * print exactly one JSON document (the result, or the error with its exit code).
 */
async function runAction(action: (context: CommandContext<any>) => Promise<unknown>, flags: Record<string, unknown>): Promise<void> {
  const stores: CheckpointStore[] = [];
  let selection: StoreSelection | undefined;
  const storeSelection = (): StoreSelection => (selection ??= selectStore(flags as { store?: string; 'database-url'?: string }));
  const context: CommandContext<Record<string, unknown>> = {
    flags,
    storeSelection,
    openStore: async (options) => {
      const store = await openStore(storeSelection(), options);
      stores.push(store);
      return store;
    },
  };
  const closeAll = () => Promise.all(stores.splice(0).map((store) => store.close()));
  try {
    const result = await action(context);
    await closeAll();
    if (result !== undefined) writeJson(successJson(result));
  } catch (error) {
    await closeAll().catch(() => undefined);
    process.exitCode = writeError(error);
  }
}
