import type { CheckpointStore } from '@session-checkpoint/core';

/**
 * On a store opened with keys: checks that the thread's newest row is the one its sealed head names
 * (`store.latest` does), so that a thread whose newest rows were deleted behind the store's back
 * (a rollback) fails with CheckpointIntegrityError instead of resuming from an older checkpoint.
 * Reads by source ref check each row alone; only this ties them to the head. A plain store: nothing.
 */
export async function checkThreadHead(store: CheckpointStore, namespace: string, thread: string): Promise<void> {
  if (store.keyIds === undefined) return;
  await store.latest(thread, { namespace });
}
