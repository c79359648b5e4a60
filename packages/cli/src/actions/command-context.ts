import type { CheckpointStore } from '@session-checkpoint/core';
import type { OpenStoreOptions } from '../store/open-store.js';
import type { StoreSelection } from '../store/store-selection.js';

/**
 * What a built-in command's action needs from whoever runs it: the parsed flags, the store
 * selection and a way to open the store (closed by the runner when the action ends). Two runners
 * provide it: {@link BaseCommand} under oclif, and the direct path (`src/direct/`), which runs the
 * same action without loading oclif. Keeping actions free of oclif is what lets the direct path
 * start fast.
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
  /** Opens the selected store; the runner closes it before printing the result. */
  openStore(options?: OpenStoreOptions): Promise<CheckpointStore>;
}
