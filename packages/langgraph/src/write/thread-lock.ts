import type { CheckpointStore } from '@session-checkpoint/core';
import { threadLockRef } from '../format/refs.js';

/*
 * Links between rows must survive other processes (docs/langgraph.md, "References between rows"):
 * a put that links to earlier rows checks them in the transaction that inserts its row, and
 * deleteThread and prune delete in a transaction too; the two must not interleave. SQLite's
 * BEGIN IMMEDIATE already serialises writers (`concurrentTransactions` false). On PostgreSQL each
 * of these transactions first takes the thread's lock: the adapter's `transactionLock` (an advisory
 * lock, docs/decisions/0010) or, on an adapter without it, a lock row (a fixed source ref, unique in
 * the namespace) inserted and deleted again before the commit, so that a second writer waits on the
 * unique index; the lock row is never committed. Which one depends on the adapter alone, so
 * processes sharing a store through one adapter always take the same lock.
 */

/** Kind of the transient lock row (never committed). */
export const LOCK_KIND = 'langgraph.lock';

/** True when the store's other callers can run while a transaction is open (PostgreSQL). */
export function needsThreadLock(store: CheckpointStore): boolean {
  return store.adapter.capabilities.concurrentTransactions;
}

/** True when the thread's lock is the adapter's `transactionLock` (rather than the lock row). */
export function hasAdapterLock(store: CheckpointStore): boolean {
  const { adapter } = store;
  return adapter.capabilities.transactionLocks === true && typeof adapter.transactionLock === 'function';
}

/**
 * Takes the thread's lock inside the open transaction `tx` (a no-op where writers are serialised
 * already); returns the release, to call before the transaction commits.
 */
export async function lockThread(tx: CheckpointStore, namespace: string, threadId: string): Promise<() => Promise<void>> {
  if (!needsThreadLock(tx)) return async () => undefined;
  if (hasAdapterLock(tx)) {
    await tx.adapter.transactionLock?.(threadLockRef(threadId));
    return async () => undefined;
  }
  const row = await tx.create({
    namespace,
    sessionId: threadId,
    kind: LOCK_KIND,
    name: 'lock',
    payload: { langgraph: 2, lock: threadId },
    sourceRef: threadLockRef(threadId),
  });
  return async () => {
    // deleteThread removes it with the thread's rows; the facade's delete would then find nothing.
    if (await tx.findBySourceRef(namespace, threadLockRef(threadId))) await tx.delete(row.id, { namespace, apply: true, force: true });
  };
}

/**
 * The refs among `refs` that some row holds, with that row's recorded payload SHA-256, read inside
 * `tx` for presence only: the rows' values are never used, so they are not verified here (every
 * value is verified when read).
 */
export async function existingRefs(tx: CheckpointStore, namespace: string, refs: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (refs.length === 0) return found;
  if (tx.keyIds !== undefined) {
    // Sealed: the column holds the envelope's hash; the list pieces name the plaintext's, which
    // only an opened row gives.
    for (const row of await tx.findBySourceRefs(namespace, refs)) if (row.sourceRef != null) found.set(row.sourceRef, row.payloadSha256);
    return found;
  }
  const adapter = tx.adapter;
  const rows = adapter.findBySourceRefs
    ? await adapter.findBySourceRefs(namespace, refs)
    : (await Promise.all(refs.map((ref) => adapter.findBySourceRef(namespace, ref)))).filter((r) => r !== undefined);
  for (const row of rows) if (row?.sourceRef != null) found.set(row.sourceRef, row.payloadSha256);
  return found;
}
