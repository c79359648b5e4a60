import { isCheckpointConflictError } from '@session-checkpoint/core';
import { ensureEqual, rejectsMatching, rejectsWith } from '../assert.js';
import { ids } from '../context.js';
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
];
