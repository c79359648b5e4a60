import { CheckpointConflictError, isCheckpointConflictError, type Checkpoint, type CheckpointStore } from '@session-checkpoint/core';
import { rawRange, storeArgument } from '@session-checkpoint/core/toolkit';
import { KINDS } from './rows/namespace.js';
import { wholeRange } from './rows/range-pages.js';
import { lockRef, sessionOf } from './rows/refs.js';

/** Attempts before a write that keeps losing races gives up (each loss means another writer won). */
const MAX_ATTEMPTS = 200;

/** Thrown inside a transaction when a row it meant to replace is already gone: the transaction is retried. */
export class LostRace extends CheckpointConflictError {}

/**
 * Runs `fn` in one store transaction, again while it loses a race (two writers took the same
 * ref, or a row to replace was gone): each attempt is a whole transaction, so a lost one changed
 * nothing.
 */
export async function inTransaction<T>(store: CheckpointStore, fn: (tx: CheckpointStore) => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await store.transaction(fn);
    } catch (error) {
      if (!isCheckpointConflictError(error) || tries >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * tries)));
    }
  }
}

/** Deletes `ids` in the caller's transaction, or loses the race when another writer deleted one first. */
export async function deleteExactly(tx: CheckpointStore, namespace: string, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const deleted = await tx.adapter.deleteRows(ids, namespace);
  if (deleted.length !== new Set(ids).size) throw new LostRace('a row to replace was changed by another writer');
}

/** The key of a thread's transaction lock (`transactionLock`, and a conditional insert's `lockKey`). */
export const threadLockKey = (namespace: string, threadId: string): string => `mastra-thread/${namespace}/${threadId}`;

/**
 * Takes, in the caller's transaction, the lock of each thread (in sorted order, so two holders of
 * several never wait on each other crosswise) and resolves to its release, to call before the
 * transaction commits. A thread's delete and a message save to it take it before their first
 * read: on PostgreSQL (READ COMMITTED) the save's inserts are new refs that no row lock of the
 * delete meets, so without it a delete that read the thread before a save committed left that
 * save's rows (its messages, and a change row numbered after the deleted ones).
 *
 * Where writers run one at a time already (`concurrentTransactions` false: SQLite's `BEGIN
 * IMMEDIATE`, the memory adapter) there is nothing to take. Otherwise the adapter's
 * `transactionLock` (PostgreSQL: an advisory lock, held to the commit), or on an adapter without
 * it a lock row per thread (`l/<thread>`, unique in the namespace) inserted now and deleted again
 * by the release, so that a second holder waits on the unique index; the row is never committed.
 * Which one depends on the adapter alone, so every writer through one adapter takes the same.
 */
export async function lockThreads(tx: CheckpointStore, namespace: string, threadIds: Iterable<string>): Promise<() => Promise<void>> {
  const adapter = tx.adapter;
  const none = async () => undefined;
  if (!adapter.capabilities.concurrentTransactions) return none;
  const sorted = [...new Set(threadIds)].sort();
  if (adapter.capabilities.transactionLocks === true && adapter.transactionLock) {
    for (const threadId of sorted) await adapter.transactionLock(threadLockKey(namespace, threadId));
    return none;
  }
  const rows: number[] = [];
  for (const threadId of sorted) rows.push((await tx.create({ namespace, sessionId: sessionOf(threadId), kind: KINDS.lock, payload: { threadId }, sourceRef: lockRef(threadId) })).id);
  return () => deleteExactly(tx, namespace, rows);
}

/** Every verified row of a prefix, in ref order (pages of 500). */
export function rowsByPrefix(store: CheckpointStore, namespace: string, prefix: string, options: { kind?: string; descending?: boolean; limit?: number } = {}): Promise<Checkpoint[]> {
  const range = { namespace, prefix, descending: options.descending === true, ...(options.kind === undefined ? {} : { kind: options.kind }) };
  return wholeRange((q) => store.listBySourceRefPrefix(q), range, { page: 500, ...(options.limit === undefined ? {} : { limit: options.limit }) });
}

/**
 * The ref `offset` rows into a prefix range (in `descending` order), or `undefined` when the range
 * is shorter. Unverified, and only a ref: a caller reads (and verifies) the rows after it, or
 * takes the seq it ends with to number the next row. The adapter's `sourceRefAt` passes over the
 * rows before it without reading them; without that member they are read raw, 1,000 at a time.
 */
export async function refAt(store: CheckpointStore, namespace: string, prefix: string, offset: number, descending: boolean): Promise<string | undefined> {
  const adapter = store.adapter;
  if (adapter.sourceRefAt) return adapter.sourceRefAt({ namespace, prefix, descending, offset });
  let from: string | undefined;
  for (let left = offset + 1; left > 0; ) {
    const limit = Math.min(1000, left);
    const bound = from === undefined ? {} : descending ? { before: from } : { after: from };
    const rows = await rawRange(store, { namespace, prefix, limit, descending, ...bound });
    if (rows.length < limit) return undefined;
    left -= rows.length;
    from = rows[rows.length - 1]?.sourceRef ?? undefined;
  }
  return from;
}

/** The methods the domains call on their store, checked at construction. */
export function domainStore(value: unknown, name: string): CheckpointStore {
  return storeArgument(value, { name, methods: ['create', 'prepare', 'insertPrepared', 'insertPreparedMany', 'findBySourceRef', 'findBySourceRefs', 'listBySourceRefPrefix', 'transaction'] });
}
