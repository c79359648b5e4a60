import type { CheckpointStore, Keyring } from '@session-checkpoint/core';
import type { OpenStoreOptions } from '../store/open-store.js';
import type { StoreSelection } from '../store/store-selection.js';
import { GLOBAL_FLAGS, type FlagSchema, type FlagValues } from './flags.js';

/** What an action gets from the lifecycle that runs it (run-command.ts). */
export interface CommandContext<F> {
  /** The parsed flags, under their command-line names (`session-id`), global flags included. */
  readonly flags: F;
  /** The store selected by the flags or the environment (not opened); throws a UsageError when none or both are given. */
  storeSelection(): StoreSelection;
  /** The keyring of `--key-file` or `SESSION_CHECKPOINT_KEY_FILE` (read once); `undefined` for neither. */
  storeKeys(): Promise<Keyring | undefined>;
  /** Opens the selected store (with the key file's keys, if any); the lifecycle closes it before printing the result. */
  openStore(options?: OpenStoreOptions): Promise<CheckpointStore>;
}

/** An example in help: a command line, or one with a sentence saying what it shows. */
export type Example = string | { description: string; command: string };

/**
 * A built-in command, declared once: its help, its flags and its work. The built-in route parses
 * the command line against `flags` (parse-argv.ts), oclif's manifest and help come from the same
 * declaration (oclif-commands.ts), and the action's flag types are inferred from it.
 */
export interface CommandDefinition<F extends FlagSchema = FlagSchema> {
  /** The command word, e.g. `get`. */
  readonly id: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Help text. */
  readonly description: string;
  /** Help examples; `<%= config.bin %> <%= command.id %>` is the command. */
  readonly examples: readonly Example[];
  /** The command's own flags; the global flags (GLOBAL_FLAGS) are added to every command. */
  readonly flags: F;
  /** The work: flags and store in, the JSON-ready result out (`undefined` prints nothing). */
  action(context: CommandContext<FlagValues<F & typeof GLOBAL_FLAGS>>): Promise<unknown>;
}

/**
 * Declares a built-in command (a typed identity: it returns `definition`).
 *
 * @example
 * ```ts
 * export default defineCommand({
 *   id: 'get', summary: 'Return one checkpoint.', description: '...', examples: [],
 *   flags: { id: flag.integer({ description: 'Checkpoint id.', required: true }) },
 *   async action({ flags, openStore }) { return checkpointJson(await (await openStore()).get(flags.id)); },
 * });
 * ```
 */
export function defineCommand<const F extends FlagSchema>(definition: CommandDefinition<F>): CommandDefinition<F> {
  return definition;
}
