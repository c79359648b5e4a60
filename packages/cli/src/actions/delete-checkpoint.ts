import { checkpointJson } from '../output/records.js';
import type { CommandContext } from './command-context.js';

/** Flags of `delete`. */
export interface DeleteFlags {
  /** Delete; without it the command is a dry run. */
  apply: boolean;
  /** Also delete a row that fails verification. */
  force: boolean;
  /** Checkpoint id. */
  id: number;
  /** Namespace of the checkpoint. */
  namespace?: string | undefined;
}

/**
 * `delete`: `{ dry_run, checkpoint, deleted }`, plus `integrity_failure` for a forced bad row.
 *
 * @example
 * ```ts
 * await deleteCheckpoint(context); // { dry_run: true, checkpoint: {...}, deleted: [] }
 * ```
 */
export async function deleteCheckpoint({ flags, openStore }: CommandContext<DeleteFlags>): Promise<Record<string, unknown>> {
  const store = await openStore();
  const result = await store.delete(flags.id, { namespace: flags.namespace, apply: flags.apply, force: flags.force });
  return {
    dry_run: result.dryRun,
    checkpoint: result.checkpoint === null ? null : checkpointJson(result.checkpoint, { payload: false }),
    deleted: result.deleted,
    ...(result.integrityFailure === undefined ? {} : { integrity_failure: result.integrityFailure }),
  };
}
