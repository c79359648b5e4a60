import { checkpointJson } from '../output/records.js';
import type { CommandContext } from './command-context.js';

/** Flags of `list`. */
export interface ListFlags {
  /** Page size. */
  limit: number;
  /** Namespace to list. */
  namespace?: string | undefined;
  /** Checkpoints to skip. */
  offset: number;
  /** Only this session; every session when absent. */
  'session-id'?: string | undefined;
}

/**
 * `list`: a page of a namespace, newest first, without payloads.
 *
 * @example
 * ```ts
 * await listCheckpoints(context); // [{ id: 9, ... }, { id: 8, ... }]
 * ```
 */
export async function listCheckpoints({ flags, openStore }: CommandContext<ListFlags>): Promise<Record<string, unknown>[]> {
  const store = await openStore();
  const page = await store.list({
    namespace: flags.namespace,
    limit: flags.limit,
    offset: flags.offset,
    ...(flags['session-id'] === undefined ? {} : { sessionId: flags['session-id'] }),
  });
  return page.map((cp) => checkpointJson(cp, { payload: false }));
}
