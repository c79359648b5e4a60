import { checkpointJson } from '../output/records.js';
import type { CommandContext } from './command-context.js';

/** Flags of `get`. */
export interface GetFlags {
  /** Checkpoint id. */
  id: number;
  /** Namespace of the checkpoint. */
  namespace?: string | undefined;
}

/**
 * `get`: one verified checkpoint with its payload, as the CLI prints it.
 *
 * @example
 * ```ts
 * await getCheckpoint(context); // { id: 7, namespace: 'default', ..., payload: {...} }
 * ```
 */
export async function getCheckpoint({ flags, openStore }: CommandContext<GetFlags>): Promise<Record<string, unknown>> {
  const store = await openStore();
  return checkpointJson(await store.get(flags.id, { namespace: flags.namespace }));
}
