import { CheckpointNotFoundError, CheckpointValidationError, type CheckpointStore } from '@session-checkpoint/core';
import { itemRowsAscending } from '../format/item-rows.js';
import { AGENTS_NAMESPACE } from '../format/source-refs.js';
import type { SessionRowsPlace, SessionState } from './types.js';

/** Options of {@link sessionState}. */
export interface SessionStateOptions extends SessionRowsPlace {
  sessionId: string;
  /** Only the items up to this position (1 is the first item). Default is the whole history. */
  position?: number;
}

/**
 * A session's items, verified and decoded by the session's own decoder (format/item-rows.ts): equal to
 * `getItems()`, or, with `position`, its items up to that position. Reads rows oldest first and
 * stops at the position.
 *
 * @throws CheckpointNotFoundError when the session has no item rows.
 * @throws CheckpointValidationError when `position` is not a positive integer.
 * @throws CheckpointIntegrityError naming the row when a row fails verification.
 * @example
 * ```ts
 * const firstTurn = await sessionState(store, { sessionId: 'user-42', position: 2 });
 * ```
 */
export async function sessionState(store: CheckpointStore, options: SessionStateOptions): Promise<SessionState> {
  const namespace = options.namespace ?? AGENTS_NAMESPACE;
  const upTo = options.position;
  if (upTo !== undefined && (!Number.isSafeInteger(upTo) || upTo < 0)) throw new CheckpointValidationError('position must be a non-negative integer');
  const items: unknown[] = [];
  let position = 0;
  let rows = 0;
  for await (const row of itemRowsAscending(store, { namespace, sessionId: options.sessionId })) {
    rows++;
    for (let i = 0; i < row.items.length; i++) {
      if (upTo !== undefined && row.seq + i > upTo) break;
      items.push(row.items[i]);
      position = row.seq + i;
    }
    if (upTo !== undefined && row.seq + row.items.length > upTo) break;
  }
  if (rows === 0) throw new CheckpointNotFoundError(`no OpenAI Agents session '${options.sessionId}' in namespace '${namespace}'`);
  return { family: 'openai-agents', namespace, session_id: options.sessionId, position, items };
}
