import { checkpointJson } from '../output/records.js';
import type { CommandContext } from './command-context.js';

/** Flags of `history`. */
export interface HistoryFlags {
  /** Page size. */
  limit: number;
  /** Namespace of the session. */
  namespace?: string | undefined;
  /** Checkpoints to skip. */
  offset: number;
  /** The session. */
  'session-id': string;
}

/**
 * `history`: a session's checkpoint metadata, newest first.
 *
 * @example
 * ```ts
 * await sessionHistory(context); // [{ id: 9, ... }, { id: 4, ... }]
 * ```
 */
export async function sessionHistory({ flags, openStore }: CommandContext<HistoryFlags>): Promise<Record<string, unknown>[]> {
  const store = await openStore();
  const page = await store.history(flags['session-id'], { namespace: flags.namespace, limit: flags.limit, offset: flags.offset });
  return page.map((cp) => checkpointJson(cp, { payload: false }));
}
