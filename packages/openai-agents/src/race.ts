import { CheckpointConflictError, isCheckpointConflictError, type CheckpointStore } from '@session-checkpoint/core';
import type { SessionPlace } from './format/item-rows.js';

/** Attempts before a write that keeps losing races gives up (each loss means another writer won). */
const MAX_ATTEMPTS = 200;

/**
 * Thrown inside a transaction when another process changed the session under it (a row it meant
 * to delete is gone); the transaction rolls back and {@link retryRaces} runs it again.
 */
class LostRace extends CheckpointConflictError {}

/**
 * Runs `attempt` until it does not lose a race. A lost race is a `CheckpointConflictError`: two
 * writers picked the same seq (the unique source-ref index refused the second) or a row to
 * delete was already gone. Each attempt is a whole transaction, so a lost one changed nothing.
 */
export async function retryRaces<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isCheckpointConflictError(error) || tries >= MAX_ATTEMPTS) throw error;
      // A short random pause so that the same writers do not collide again in lock step.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * tries)));
    }
  }
}

/**
 * Deletes rows of a session by id inside the caller's transaction; when another process deleted
 * one of them first, the transaction lost a race ({@link LostRace}: `during` says what it was doing).
 * Through the store, not the adapter: on a sealed store the session's chain and head follow.
 */
export async function deleteOrLoseRace(store: CheckpointStore, place: SessionPlace, ids: readonly number[], during: string): Promise<void> {
  if (ids.length === 0) return;
  const deleted = await store.deleteIds(ids, { namespace: place.namespace });
  if (deleted.length !== ids.length) throw new LostRace(`session ${place.sessionId} changed during the ${during}; retrying`);
}
