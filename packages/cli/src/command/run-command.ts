import { loadKeyFile, type CheckpointStore, type Keyring } from '@session-checkpoint/core';
import { setCommandRunning, takeStrayFailure } from '../output/one-document.js';
import { writeError, writeResult } from '../output/write-json.js';
import { refuseKeylessWrite, selectKeyFile } from '../store/key-selection.js';
import { openStore, type OpenStoreOptions } from '../store/open-store.js';
import { selectStore, type StoreFlagValues, type StoreSelection } from '../store/store-selection.js';
import type { CommandContext, CommandDefinition } from './define-command.js';
import { GLOBAL_FLAGS } from './flags.js';
import { parseArgv } from './parse-argv.js';

/*
 * The lifecycle of a command: parse, run with store access, close every store it opened, then
 * print exactly one JSON document. Built-in commands run it through `runBuiltin`; plugin
 * commands (BaseCommand, on oclif's Command) run the same steps from oclif's init, catch and
 * finally, with the same store scope.
 */

/** The stores a command opened, and the selection they came from (see {@link storeScope}). */
export type StoreScope = ReturnType<typeof storeScope>;

/**
 * A store scope for parsed flags, with the command marked as running: until it is closed, a
 * failure from outside the command (a driver's `'error'` event, reported by `main`) waits
 * instead of being printed.
 *
 * @example
 * ```ts
 * const scope = storeScope(flags);
 * try { return await (await scope.openStore()).get(7); } finally { await scope.close(); }
 * ```
 */
export function storeScope(flags: StoreFlagValues) {
  const stores: CheckpointStore[] = [];
  let selection: StoreSelection | undefined;
  setCommandRunning(true);
  let keys: Promise<Keyring | undefined> | undefined;
  const storeSelection = () => (selection ??= selectStore(flags));
  /**
   * The keyring of `--key-file` or `SESSION_CHECKPOINT_KEY_FILE` (read once), `undefined` for
   * neither. core's `loadKeyFile` refuses a file group or others may access (`StoreSecurityError`
   * naming the path and its mode) and a malformed one without quoting it.
   */
  const storeKeys = (): Promise<Keyring | undefined> => {
    if (keys === undefined) {
      const path = selectKeyFile(flags);
      keys = path === undefined ? Promise.resolve(undefined) : loadKeyFile(path);
    }
    return keys;
  };
  return {
    /** The store selected by the flags or the environment (resolved once). */
    storeSelection,
    storeKeys,
    /**
     * Opens the selected store, with the key file's keys unless `options.keys` says otherwise,
     * and remembers it, to close it when the command ends.
     */
    async openStore(options: OpenStoreOptions = {}): Promise<CheckpointStore> {
      const selected = storeSelection();
      const ring = 'keys' in options ? options.keys : await storeKeys();
      const store = await openStore(selected, { ...options, ...(ring === undefined ? {} : { keys: ring }) });
      stores.push(store);
      if (options.write === true) await refuseKeylessWrite(store);
      return store;
    },
    /** Closes every store opened so far; warns (with `--verbose`) about a failure from outside the command. */
    async close(): Promise<void> {
      try {
        await Promise.all(stores.splice(0).map((store) => store.close()));
      } finally {
        setCommandRunning(false);
        const stray = takeStrayFailure();
        if (stray !== undefined) process.emitWarning(`while the command ran: ${stray.error instanceof Error ? stray.error.message : String(stray.error)}`);
      }
    },
  };
}

/**
 * Runs a built-in command: parses `argv` against its flags, runs its action, closes the stores,
 * prints the result (or the error) as the run's one JSON document and returns the exit code. A
 * failure while closing is reported instead of an `"ok": true` that would hide it. Never throws.
 *
 * @param argv Arguments after the command id.
 * @example
 * ```ts
 * process.exitCode = await runBuiltin(get, ['--store', 'app.sqlite', '--id', '7']);
 * ```
 */
export async function runBuiltin(command: CommandDefinition, argv: readonly string[]): Promise<number> {
  let scope: StoreScope | undefined;
  try {
    const flags = parseArgv(argv, { ...GLOBAL_FLAGS, ...command.flags });
    scope = storeScope(flags);
    const context: CommandContext<never> = { flags: flags as never, storeSelection: scope.storeSelection, storeKeys: scope.storeKeys, openStore: scope.openStore };
    const result = await command.action(context);
    await scope.close();
    if (result !== undefined) writeResult(result);
    return 0;
  } catch (error) {
    await scope?.close().catch(() => undefined);
    return writeError(error);
  }
}
