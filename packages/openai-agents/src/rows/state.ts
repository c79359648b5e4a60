import type { CheckpointStore } from '@session-checkpoint/core';
import type { SessionRowsPlace, SessionState } from './types.js';

/** Options of {@link sessionState}. */
export interface SessionStateOptions extends SessionRowsPlace {
  sessionId: string;
  /** Only the items up to this position (1 is the first item). Default is the whole history. */
  position?: number;
}

/**
 * A session's items, verified and decoded by the session's own decoder: equal to `getItems()` in
 * JSON, or, with `position`, its first `position` items.
 *
 * @throws CheckpointNotFoundError when the session has no item rows.
 * @throws CheckpointIntegrityError naming the row when a row fails verification.
 * @example
 * ```ts
 * const firstTurn = await sessionState(store, { sessionId: 'user-42', position: 2 });
 * ```
 */
export async function sessionState(store: CheckpointStore, options: SessionStateOptions): Promise<SessionState> {
  void store;
  void options;
  throw new Error('not yet');
}
