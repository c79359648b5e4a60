import type { CheckpointStore, CreateCheckpointInput } from '@session-checkpoint/core';
import type { PutPlan } from './put-plan.js';
import { checkpointRef, threadLockRef } from './source-refs.js';
import { hasAdapterLock, needsThreadLock } from './thread-lock.js';

/*
 * The common put in one statement. Where the adapter offers a conditional insert, the checkpoint
 * row goes in only if every row it links to is still there, checked under the thread's lock in the
 * same atomic step (one round trip on PostgreSQL, no BEGIN IMMEDIATE on SQLite). When the row
 * needs parts, or the insert does not happen (a linked row gone or re-created, the id taken), the
 * caller's transaction decides instead: it checks each link, stores what it cannot link to in full
 * and tells a re-put of the same checkpoint from a conflict (see thread-lock.ts).
 */

/** The inserted row's SHA-256, or `undefined` when the put must take the transaction. */
export async function putAtOnce(store: CheckpointStore, plan: PutPlan, input: CreateCheckpointInput, thread: string, ns: string): Promise<string | undefined> {
  if (store.adapter.capabilities.conditionalInserts !== true) return undefined;
  // The statement's lock must be the one deleteThread and prune take: the adapter's, not a lock row.
  if (needsThreadLock(store) && !hasAdapterLock(store)) return undefined;
  const present: { sourceRef: string; payloadSha256?: string }[] = [];
  for (const [from, needs] of plan.links()) {
    const shas = new Set<string>();
    for (const need of needs) if (need.sha !== undefined) shas.add(need.sha);
    // Two list pieces naming one row with different hashes: no single check says which holds.
    if (shas.size > 1) return undefined;
    const [sha] = shas;
    present.push(sha === undefined ? { sourceRef: checkpointRef(thread, ns, from) } : { sourceRef: checkpointRef(thread, ns, from), payloadSha256: sha });
  }
  const prepared = plan.prepareWhole(store, input);
  if (prepared === undefined) return undefined;
  // The lock only orders this insert against a delete of the rows it links to. A row that links
  // to none (its values all its own) has nothing a delete could break: one advisory lock call
  // less per statement, and no wait behind a prune of the thread.
  const row = await store.insertPreparedIfPresent(prepared, present.length === 0 ? { present } : { present, lockKey: threadLockRef(thread) });
  return row?.payloadSha256;
}
