import type { InsertPrecondition, NewCheckpointRow } from '@session-checkpoint/core';
import { ensure, ensureEqual } from '../assert.js';
import { heldTransaction } from '../context.js';
import type { ConformanceCase } from '../types.js';

/** `insertIfPresent`: an insert that needs other rows, checked and done in one atomic step. */
export const conditionalInsert: ConformanceCase[] = [
  {
    name: 'insertIfPresent inserts only when every required row exists, with the SHA-256 asked for',
    requires: 'conditionalInserts',
    async run({ store, make }) {
      const a = await make({ sourceRef: 'a' });
      const b = await make({ sourceRef: 'b', payload: { n: 2 } });
      const row = (ref: string) => store.prepare({ namespace: 'app', sessionId: 's-1', payload: { ref }, sourceRef: ref });
      const both = await store.insertPreparedIfPresent(row('x'), { present: [{ sourceRef: 'a' }, { sourceRef: 'b', payloadSha256: b.payloadSha256 }] });
      ensure(both !== undefined, 'insertIfPresent must insert when every required row exists', 'nothing was inserted');
      ensureEqual((await store.findBySourceRef('app', 'x'))?.id, both.id, 'the row insertIfPresent reports must be stored under its id');
      ensureEqual(await store.insertPreparedIfPresent(row('y'), { present: [{ sourceRef: 'a' }, { sourceRef: 'missing' }] }), undefined, 'insertIfPresent must insert nothing when a required row is missing');
      ensureEqual(await store.insertPreparedIfPresent(row('y'), { present: [{ sourceRef: 'a', payloadSha256: b.payloadSha256 }] }), undefined, 'insertIfPresent must insert nothing when a required row holds another SHA-256');
      ensureEqual(await store.findBySourceRef('app', 'y'), undefined, 'a refused insertIfPresent must leave no row');
      ensureEqual(await store.insertPreparedIfPresent(row('a'), { present: [{ sourceRef: 'b' }] }), undefined, 'insertIfPresent must insert nothing when its sourceRef is taken');
      ensureEqual((await store.findBySourceRef('app', 'a'))?.payloadSha256, a.payloadSha256, 'a refused insertIfPresent must leave the row holding its sourceRef as it was');
      const none = await store.insertPreparedIfPresent(row('z'), { present: [] });
      ensure(none !== undefined, 'insertIfPresent with nothing required must insert', 'nothing was inserted');
      const other = await store.insertPreparedIfPresent(store.prepare({ namespace: 'other', sessionId: 's', payload: { n: 1 }, sourceRef: 'w' }), { present: [{ sourceRef: 'a' }] });
      ensureEqual(other, undefined, 'insertIfPresent must look for the required rows in the new row\'s namespace only');
    },
  },
  {
    name: 'insertIfPresent waits for a transaction holding its lock, and does not insert when that transaction deleted a required row',
    requires: 'conditionalInserts',
    async run({ store, make }) {
      await make({ sourceRef: 'parent' });
      const deleter = heldTransaction(store, async (tx) => {
        await tx.adapter.transactionLock?.('app/thread');
        const parent = await tx.findBySourceRef('app', 'parent');
        if (parent) await tx.delete(parent.id, { namespace: 'app', apply: true });
      });
      await deleter.reached;
      const insert = store.insertPreparedIfPresent(store.prepare({ namespace: 'app', sessionId: 's-1', payload: { n: 2 }, sourceRef: 'child' }), {
        present: [{ sourceRef: 'parent' }],
        lockKey: 'app/thread',
      });
      // Time for an insert that does not wait to check against what it saw before the delete; one
      // that waits for the lock (or the writer) sees the delete however long this is.
      await new Promise((resolve) => setTimeout(resolve, 100));
      deleter.release();
      await deleter.done;
      ensureEqual(await insert, undefined, 'insertIfPresent must not insert a row whose required row a concurrent lock holder deleted');
      ensureEqual(await store.findBySourceRef('app', 'child'), undefined, 'a refused insertIfPresent must leave no row');
    },
  },
  {
    name: 'insertManyIfPresent inserts the whole batch only when every required row exists and no ref is taken',
    requires: 'insertManyIfPresent',
    async run({ adapter, store, make }) {
      const insert = (rows: NewCheckpointRow[], precondition: InsertPrecondition) => (adapter.insertManyIfPresent as NonNullable<typeof adapter.insertManyIfPresent>).call(adapter, rows, precondition);
      const row = (ref: string): NewCheckpointRow => {
        const { payloadBytes: _, ...made } = store.prepare({ namespace: 'app', sessionId: 's-1', payload: { ref }, sourceRef: ref });
        return made;
      };
      const a = await make({ sourceRef: 'a' });
      const b = await make({ sourceRef: 'b', payload: { n: 2 } });
      const count = async () => (await adapter.scanRows({ afterId: Number.NEGATIVE_INFINITY, limit: 1000 })).length;
      const batch = [row('x/1'), row('x/2'), row('x/3')];
      const ids = await insert(batch, { present: [{ sourceRef: 'a' }, { sourceRef: 'b', payloadSha256: b.payloadSha256 }] });
      ensure(ids !== undefined && ids.length === 3, 'insertManyIfPresent must insert every row when every required row exists', () => `got ${String(ids)}`);
      ensure(ids.every((id, k) => (k === 0 ? id > b.id : id > (ids[k - 1] as number))), 'the ids must ascend in the order of the rows', () => ids.join(', '));
      for (const [k, id] of ids.entries()) ensureEqual(await adapter.getRow(id, 'app'), { ...(batch[k] as NewCheckpointRow), id }, 'each row must be stored with its id, as given');
      const before = await count();
      ensureEqual(await insert([row('y/1'), row('y/2')], { present: [{ sourceRef: 'a' }, { sourceRef: 'missing' }] }), undefined, 'insertManyIfPresent must insert nothing when a required row is missing');
      ensureEqual(await insert([row('y/1'), row('y/2')], { present: [{ sourceRef: 'a', payloadSha256: b.payloadSha256 }] }), undefined, 'insertManyIfPresent must insert nothing when a required row holds another SHA-256');
      ensureEqual(await insert([row('y/1'), row('a')], { present: [{ sourceRef: 'b' }] }), undefined, 'insertManyIfPresent must insert nothing when a ref of the batch is taken');
      ensureEqual(await insert([row('y/1'), row('y/2'), row('y/1')], { present: [] }), undefined, 'insertManyIfPresent must insert nothing when two rows of the batch share a ref');
      ensureEqual(await insert([{ ...row('y/1'), namespace: 'other' }], { present: [{ sourceRef: 'a' }] }), undefined, 'insertManyIfPresent must look for the required rows in the rows\' namespace only');
      ensureEqual(await count(), before, 'a refused insertManyIfPresent must leave no row behind');
      ensureEqual((await adapter.findBySourceRef('app', 'a'))?.payloadSha256, a.payloadSha256, 'a refused insertManyIfPresent must leave the row holding a ref as it was');
      await adapter.transaction(async (tx) => {
        const inTx = (tx.insertManyIfPresent as NonNullable<typeof tx.insertManyIfPresent>).bind(tx);
        ensureEqual(await inTx([row('t/1'), row('b')], { present: [] }), undefined, 'a refused insertManyIfPresent inside a transaction must resolve to undefined');
        ensure((await inTx([row('t/2')], { present: [{ sourceRef: 'a', payloadSha256: a.payloadSha256 }] }))?.length === 1, 'insertManyIfPresent must insert inside a transaction', 'nothing was inserted');
      });
      ensureEqual(await count(), before + 1, 'a transaction with a refused and an accepted batch must keep the accepted one only');
      ensureEqual(await adapter.findBySourceRef('app', 't/1'), undefined, 'no row of a refused batch may stay');
      ensure((await insert([row('z/1'), row('z/2')], { present: [] }))?.length === 2, 'insertManyIfPresent with nothing required must insert', 'nothing was inserted');
    },
  },
];
