import type { CheckpointStore } from '@session-checkpoint/core';
import { threadLockRef } from './source-refs.js';

/*
 * References between rows must survive other processes. A put that links to earlier rows (carried
 * values, the value a list piece extends) checks, in the transaction that inserts its row, that
 * those rows exist; deleteThread and prune delete in a transaction too. The two must not
 * interleave, or a put could check, a delete commit, and the put commit a row whose links dangle:
 *
 * - SQLite opens every write transaction with BEGIN IMMEDIATE (the adapter's
 *   `concurrentTransactions` is false): writers already run one at a time, and a check inside the
 *   transaction sees every earlier commit.
 * - PostgreSQL (READ COMMITTED, `concurrentTransactions` true): each of these transactions first
 *   takes the thread's lock through the adapter's `transactionLock` (a transaction-scoped advisory
 *   lock, one statement, released by the commit or rollback), so put, deleteThread and prune on one
 *   thread run one at a time, and the check, a statement after the lock, sees what the delete
 *   committed.
 * - An adapter with concurrent transactions but no `transactionLock` (one written before it
 *   existed): the transaction inserts the thread's lock row (a fixed source ref, unique in the
 *   namespace) and deletes it again before committing. A second transaction inserting the same ref
 *   waits on the unique index until the first ends. The lock row is never committed; a crash rolls
 *   it back with the rest. It costs two statements more than the advisory lock.
 *
 * Which of the two a transaction takes depends on the adapter alone, so processes that share a
 * store through the same adapter always take the same lock.
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
  const adapter = tx.adapter;
  const rows = adapter.findBySourceRefs
    ? await adapter.findBySourceRefs(namespace, refs)
    : (await Promise.all(refs.map((ref) => adapter.findBySourceRef(namespace, ref)))).filter((r) => r !== undefined);
  for (const row of rows) if (row?.sourceRef != null) found.set(row.sourceRef, row.payloadSha256);
  return found;
}
