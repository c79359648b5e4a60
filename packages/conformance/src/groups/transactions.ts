import { isCheckpointConflictError } from '@session-checkpoint/core';
import { ensure, ensureEqual, rejectsMatching, rejectsWith } from '../assert.js';
import { heldTransaction, ids } from '../context.js';
import type { ConformanceCase } from '../types.js';

/** A transaction is all or nothing, for the caller that runs it. (Other callers: see `isolation`.) */
export const transactions: ConformanceCase[] = [
  {
    name: 'a transaction that throws leaves nothing behind',
    async run({ store, make }) {
      const before = await make();
      await rejectsMatching(
        store.transaction(async (tx) => {
          await tx.create({ namespace: 'app', sessionId: 's-1', payload: { in: 'tx' } });
          await tx.delete(before.id, { namespace: 'app', apply: true });
          throw new Error('boom');
        }),
        /boom/,
        'a transaction must fail with the error its callback threw',
      );
      ensureEqual(ids(await store.list({ namespace: 'app' })), [before.id], 'a transaction that throws must undo its create and its delete');
    },
  },
  {
    name: 'a transaction that resolves commits everything, nested calls included',
    async run({ store }) {
      await store.transaction(async (tx) => {
        await tx.create({ namespace: 'app', sessionId: 's', payload: { a: 1 } });
        await tx.transaction(async (inner) => {
          await inner.create({ namespace: 'app', sessionId: 's', payload: { a: 2 } });
        });
      });
      ensureEqual((await store.list({ namespace: 'app' })).length, 2, 'a transaction that resolves must commit its writes and those of nested calls');
    },
  },
  {
    name: 'a conflict inside a transaction rolls back its earlier writes',
    async run({ store, make }) {
      await make({ sourceRef: 'taken' });
      await rejectsWith(
        store.transaction(async (tx) => {
          await tx.create({ namespace: 'app', sessionId: 's', payload: { a: 1 }, sourceRef: 'fresh' });
          await tx.create({ namespace: 'app', sessionId: 's', payload: { a: 2 }, sourceRef: 'taken' });
        }),
        isCheckpointConflictError,
        'a conflict inside a transaction must fail it with CheckpointConflictError',
      );
      ensureEqual(await store.findBySourceRef('app', 'fresh'), undefined, 'a failed transaction must undo the writes before the conflict');
    },
  },
  {
    name: 'a transaction lock is held until its holder commits, and the next holder sees what it committed',
    requires: 'transactionLocks',
    async run({ store }) {
      const order: string[] = [];
      const a = heldTransaction(
        store,
        async (tx) => {
          await tx.adapter.transactionLock?.('app/key-1');
        },
        async (tx) => {
          await tx.create({ namespace: 'app', sessionId: 's', payload: { by: 'a' }, sourceRef: 'from-a' });
          order.push('a commits');
        },
      );
      await a.reached;
      const b = store.transaction(async (tx) => {
        await tx.adapter.transactionLock?.('app/key-1');
        order.push('b locked');
        return tx.findBySourceRef('app', 'from-a');
      });
      // Time for a lock that does not hold to let b through before a writes; a lock that holds
      // keeps b waiting however long this is.
      await new Promise((resolve) => setTimeout(resolve, 100));
      a.release();
      await a.done;
      const seen = await b;
      ensureEqual(order, ['a commits', 'b locked'], 'a second transaction taking the same lock must wait until the first ends');
      ensure(seen !== undefined, 'the next holder of a lock must see what the previous holder committed', 'the row committed by the first holder was not found');
    },
  },
  {
    name: 'a transaction lock ends with a rollback too',
    requires: 'transactionLocks',
    async run({ store }) {
      await rejectsMatching(
        store.transaction(async (tx) => {
          await tx.adapter.transactionLock?.('app/key-2');
          throw new Error('boom');
        }),
        /boom/,
        'a transaction must fail with the error its callback threw',
      );
      // Would wait forever (and time the case out) if the rolled-back holder kept the lock.
      const got = await store.transaction(async (tx) => {
        await tx.adapter.transactionLock?.('app/key-2');
        return 'locked';
      });
      ensureEqual(got, 'locked', 'a lock must be free again once its holder rolled back');
    },
  },
  {
    name: 'a transaction lock is refused outside a transaction',
    requires: 'transactionLocks',
    async run({ adapter }) {
      await rejectsMatching(Promise.resolve().then(() => adapter.transactionLock?.('app/key-3')), /transaction/, 'transactionLock outside a transaction must throw (the lock would end at once)');
    },
  },
];
