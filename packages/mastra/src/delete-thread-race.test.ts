import { CheckpointStore, type CheckpointAdapter } from '@session-checkpoint/core';
import { rawRange } from '@session-checkpoint/core/toolkit';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { changePrefix, messageIdRef, messagePrefix, threadRef } from './rows/refs.js';
import { backends, openTarget, PG_URL, RUNTIME_OK } from './test-support/backends.js';

/*
 * PostgreSQL runs a `saveMessages` and a `deleteThread` of one thread at once (READ COMMITTED): the
 * outcome must be one of the two serial ones, the save then the delete (nothing of the thread
 * left) or the delete then the save (the saved message alone, as the first change of a new
 * history). Each case forces the interleaving that went wrong, with a third connection holding
 * a row the first call needs (an uncommitted row of the ref the save inserts, or a lock on the
 * thread row the delete deletes): the second call starts while the first waits, and the holder
 * lets go once the second call has finished or is seen waiting on the first (pg_blocking_pids).
 * Nothing is timed: the waits poll PostgreSQL's lock tables. Before the fix the delete missed
 * the save's rows and left its message and change row `c/<thread>/<n + 1>`. Each case runs with
 * the adapter's `transactionLock` and with the adapter hidden behind one without it (a
 * third-party adapter: the lock row instead).
 */

const [backend] = backends().filter((b) => b.name === 'postgres');
afterAll(async () => {
  await backend?.cleanup();
});

class Rollback extends Error {}

/** `adapter` without `transactionLock` (also in its transactions), as a third-party adapter may be. */
function withoutTransactionLock(adapter: CheckpointAdapter): CheckpointAdapter {
  return new Proxy(adapter, {
    get(target, key) {
      if (key === 'transactionLock') return undefined;
      if (key === 'capabilities') return { ...target.capabilities, transactionLocks: false };
      if (key === 'transaction') return <T>(fn: (tx: CheckpointAdapter) => Promise<T>) => target.transaction((tx) => fn(withoutTransactionLock(tx)));
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Holds rows in an open transaction of `store` until `release()`; `held` resolves once it holds them. */
function holdRows(store: CheckpointStore, take: (tx: CheckpointStore) => Promise<void>): { held: Promise<void>; release: () => void; done: Promise<void> } {
  let release = () => {};
  let onHeld = () => {};
  const held = new Promise<void>((resolve) => (onHeld = resolve));
  const let_go = new Promise<void>((resolve) => (release = resolve));
  const done = store
    .transaction(async (tx) => {
      await take(tx);
      onHeld();
      await let_go;
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return { held, release, done };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

/** What a race case gets: its store, a second store to hold rows with, and the forced interleaving. */
interface Race {
  store: CheckpointStore;
  holder: CheckpointStore;
  /**
   * Holds rows (`take`), starts `first` (which then waits on them), starts `second` once `first`
   * is seen waiting, lets go once `second` has finished or is seen waiting on `first`, and
   * resolves when both have. Nothing is timed: the waits poll PostgreSQL's lock tables.
   */
  interleave(take: (tx: CheckpointStore) => Promise<void>, first: () => Promise<unknown>, second: () => Promise<unknown>): Promise<void>;
  /** The rows of a prefix of the Mastra namespace, raw: ref and parsed payload. */
  rows(prefix: string): Promise<{ ref: string | null; payload: Record<string, unknown> }[]>;
}

/** Runs `body` with a store on a schema of its own, a holder store and a monitor connection, closed after. */
async function racing(body: (race: Race) => Promise<void>): Promise<void> {
  const target = backend?.target() ?? '';
  const schema = target.slice('postgres:'.length);
  const store = await openTarget(target);
  const holder = await openTarget(target);
  const monitor = new pg.Client({ connectionString: PG_URL });
  await monitor.connect();
  try {
    const table = (await monitor.query<{ oid: string }>(`select '"${schema}"."checkpoints"'::regclass::oid as oid`)).rows[0]?.oid;
    // A backend of this test's table waiting on a lock (the holder itself waits on nothing).
    const waiting = async () => (await monitor.query<{ pid: number }>(`select a.pid from pg_stat_activity a where a.wait_event_type = 'Lock' and exists (select 1 from pg_locks l where l.pid = a.pid and l.relation = $1)`, [table])).rows.map((r) => r.pid);
    const blockedBy = async (pid: number) => (await monitor.query(`select 1 from pg_stat_activity where $1 = any(pg_blocking_pids(pid))`, [pid])).rowCount !== 0;
    const interleave: Race['interleave'] = async (take, first, second) => {
      const hold = holdRows(holder, take);
      await hold.held;
      const firstCall = first();
      let firstPid: number | undefined;
      while (firstPid === undefined) {
        firstPid = (await waiting())[0];
        if (firstPid === undefined) await tick();
      }
      let secondDone = false;
      const secondCall = second().finally(() => (secondDone = true));
      while (!secondDone && !(await blockedBy(firstPid))) await tick();
      hold.release();
      await hold.done;
      await Promise.all([firstCall, secondCall]);
    };
    const rows: Race['rows'] = async (prefix) => (await rawRange(store, { namespace: 'mastra', prefix, limit: 100 })).map((r) => ({ ref: r.sourceRef, payload: JSON.parse(r.payloadJson) as Record<string, unknown> }));
    await body({ store, holder, interleave, rows });
  } finally {
    await monitor.end();
    await holder.close();
    await store.close();
  }
}

describe.skipIf(!RUNTIME_OK || !PG_URL || !backend)('deleteThread racing saveMessages on PostgreSQL', () => {
  it.each([
    { first: 'save', remembered: 4096, lock: 'transactionLock' },
    { first: 'save', remembered: 0, lock: 'transactionLock' },
    { first: 'delete', remembered: 4096, lock: 'transactionLock' },
    { first: 'delete', remembered: 0, lock: 'transactionLock' },
    { first: 'save', remembered: 4096, lock: 'lock row' },
    { first: 'delete', remembered: 4096, lock: 'lock row' },
  ] as const)('the outcome is serial: $first waits mid-call (rememberedThreads $remembered, $lock)', async ({ first, remembered, lock }) => {
    const { CheckpointMemoryStorage } = await import('./index.js');
    await racing(async ({ store, interleave, rows }) => {
      const memory = new CheckpointMemoryStorage(lock === 'lock row' ? new CheckpointStore(withoutTransactionLock(store.adapter)) : store, { rememberedThreads: remembered });
      const threadId = `t-${first}-${remembered}`;
      const at = new Date('2026-01-01T00:00:00Z');
      await memory.saveThread({ thread: { id: threadId, resourceId: 'u', title: 'x', metadata: {}, createdAt: at, updatedAt: at } });
      const message = (id: string, k: number) => ({ id, threadId, resourceId: 'u', role: 'user' as const, createdAt: new Date(at.getTime() + k), content: { format: 2 as const, parts: [{ type: 'text' as const, text: id }] } });
      // Two saves: the memo then holds the thread's newest change, as a running agent's does.
      await memory.saveMessages({ messages: [message('m0', 1)] });
      await memory.saveMessages({ messages: [message('m1', 2)] });

      const save = () => memory.saveMessages({ messages: [message('new', 3)] });
      const remove = () => memory.deleteThread({ threadId });
      // The save inserts the new message's id row: an uncommitted row of that ref makes it wait
      // after its reads. The delete deletes the thread row: a lock on it makes it wait after its reads.
      const take =
        first === 'save'
          ? async (tx: CheckpointStore) => void (await tx.create({ namespace: 'mastra', sessionId: 'holder', kind: 'holder', payload: {}, sourceRef: messageIdRef('new') }))
          : async (tx: CheckpointStore) => {
              const row = await tx.findBySourceRef('mastra', threadRef(threadId));
              expect(await tx.adapter.deleteRows([row?.id ?? 0], 'mastra')).toHaveLength(1);
            };
      await interleave(take, first === 'save' ? save : remove, first === 'save' ? remove : save);

      const thread = await rows(threadRef(threadId));
      const messages = await rows(messagePrefix(threadId));
      const changes = await rows(changePrefix(threadId));
      const ids = await rows('i/');
      expect(thread).toEqual([]);
      expect(await rows('l/')).toEqual([]);
      // Forced this way, each interleaving has one serial outcome: the call that went first wins.
      expect(messages.length).toBe(first === 'save' ? 0 : 1);
      if (messages.length === 0) {
        // The save, then the delete.
        expect({ changes, ids }).toEqual({ changes: [], ids: [] });
      } else {
        // The delete, then the save: the new message alone, in change 1 of a new history.
        expect(messages.map((m) => (m.payload as { messageId: string }).messageId)).toEqual(['new']);
        expect(changes.map((c) => [c.payload.seq, c.payload.count])).toEqual([[1, 1]]);
        expect(ids.map((i) => i.ref)).toEqual([messageIdRef('new')]);
      }
      // A fresh reader agrees (no memo).
      const fresh = new CheckpointMemoryStorage(store, { rememberedThreads: 0 });
      const listed = await fresh.listMessages({ threadId });
      expect(listed.total).toBe(listed.messages.length);
    });
  }, 120_000);

  it('the outcome is serial: a deleteThread waits mid-call while an updateMessages moves a message into the thread', async () => {
    const { CheckpointMemoryStorage } = await import('./index.js');
    await racing(async ({ store, interleave, rows }) => {
      const memory = new CheckpointMemoryStorage(store);
      const threadId = 't-update';
      const at = new Date('2026-01-01T00:00:00Z');
      for (const id of [threadId, 'other']) await memory.saveThread({ thread: { id, resourceId: 'u', title: 'x', metadata: {}, createdAt: at, updatedAt: at } });
      const message = (id: string, thread: string, k: number) => ({ id, threadId: thread, resourceId: 'u', role: 'user' as const, createdAt: new Date(at.getTime() + k), content: { format: 2 as const, parts: [{ type: 'text' as const, text: id }] } });
      await memory.saveMessages({ messages: [message('m0', threadId, 1)] });
      await memory.saveMessages({ messages: [message('x', 'other', 2)] });

      // The delete deletes the thread row: a lock on it makes it wait after its reads.
      await interleave(
        async (tx) => {
          const row = await tx.findBySourceRef('mastra', threadRef(threadId));
          expect(await tx.adapter.deleteRows([row?.id ?? 0], 'mastra')).toHaveLength(1);
        },
        () => memory.deleteThread({ threadId }),
        () => memory.updateMessages({ messages: [{ id: 'x', threadId }] }),
      );

      // The delete, then the update: the moved message alone, in change 1 of a new history
      // (before the fix the update committed while the delete waited, and the delete left the
      // moved message and a change row numbered after the ones it deleted).
      expect(await rows(threadRef(threadId))).toEqual([]);
      expect((await rows(messagePrefix(threadId))).map((m) => (m.payload as { messageId: string }).messageId)).toEqual(['x']);
      expect((await rows(changePrefix(threadId))).map((c) => [c.payload.seq, c.payload.count])).toEqual([[1, 1]]);
      expect(await rows(messagePrefix('other'))).toEqual([]);
    });
  }, 120_000);
});
