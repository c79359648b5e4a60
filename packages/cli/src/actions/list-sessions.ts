import { sessionJson } from '../output/records.js';
import type { CommandContext } from './command-context.js';

/** Flags of `sessions`. */
export interface SessionsFlags {
  /** Namespace to summarise. */
  namespace?: string | undefined;
}

/**
 * `sessions`: `[{ session_id, count, latest_id, latest_created_at }]`, most recently active first.
 *
 * @example
 * ```ts
 * await listSessions(context); // [{ session_id: 'a', count: 2, latest_id: 5, latest_created_at: '...' }]
 * ```
 */
export async function listSessions({ flags, openStore }: CommandContext<SessionsFlags>): Promise<Record<string, unknown>[]> {
  const store = await openStore();
  return (await store.sessions({ namespace: flags.namespace })).map(sessionJson);
}
