import type { CheckpointStore } from '@session-checkpoint/core';
import type { OpenStoreOptions } from '../store/open-store.js';
import type { StoreSelection } from '../store/store-selection.js';

/**
 * What a command's action needs from the one lifecycle that runs it (`src/lifecycle/run-command.ts`):
 * the parsed flags, the store selection and a way to open the store (closed by the lifecycle when
 * the action ends). Actions never see oclif, so the direct path can run them without loading it.
 *
 * @example
 * ```ts
 * const result = await getCheckpoint({ flags: { id: 7, namespace: 'default' }, storeSelection, openStore });
 * ```
 */
export interface CommandContext<F> {
  /** The command's parsed flags, under their command-line names (`session-id`). */
  readonly flags: F;
  /** The store selected by the flags or the environment (not opened); throws a UsageError when none or both are given. */
  storeSelection(): StoreSelection;
  /** Opens the selected store; the lifecycle closes it before printing the result. */
  openStore(options?: OpenStoreOptions): Promise<CheckpointStore>;
}

/** A command's work: flags and store in, the JSON-ready result out (`undefined` prints nothing). */
export type CommandAction<F = any> = (context: CommandContext<F>) => Promise<unknown>;
