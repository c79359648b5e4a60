import type { CheckpointStore } from '@session-checkpoint/core';
import type { SessionPlace } from './format/item-rows.js';

/**
 * On a store opened with keys: checks that the session's newest row is the one its sealed head
 * names (`store.latest` does), so that a session whose newest items were deleted behind the
 * store's back (a rollback) fails with CheckpointIntegrityError instead of answering with an older
 * history. Reads by source ref check each row alone; only this ties them to the head. A plain
 * store: nothing.
 */
export async function checkSessionHead(store: CheckpointStore, place: SessionPlace): Promise<void> {
  if (store.keyIds === undefined) return;
  await store.latest(place.sessionId, { namespace: place.namespace });
}
