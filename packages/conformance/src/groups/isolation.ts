import type { CheckpointAdapter } from '@session-checkpoint/core';
import { ensure, ensureEqual, rejectsMatching } from '../assert.js';
import { at, ids } from '../context.js';
import type { ConformanceCase } from '../types.js';

/** A call made by another caller while a transaction is open; `result` settles when it is done. */
interface OtherCall<T> {
  result: Promise<T>;
}

/**
 * Starts `call` as another caller would, from inside an open transaction. An adapter that declares
 * `concurrentTransactions` must let it finish while the transaction is still open, so it is run to
 * completion here: the interleaving that breaks a rollback by snapshot and restore. Any other
 * adapter makes it wait for the transaction, so waiting for it here would deadlock: the case
 * collects its result after the transaction ends, and the rules below must hold either way.
 */
async function otherCaller<T>(adapter: CheckpointAdapter, call: () => Promise<T>): Promise<OtherCall<T>> {
  const result = call();
  // Observed by the case after the transaction; this keeps an early failure from being unhandled.
  result.catch(() => undefined);
  if (adapter.capabilities.concurrentTransactions) await Promise.allSettled([result]);
  return { result };
}

const ascending = (values: number[]) => [...values].sort((x, y) => x - y);
const app = { namespace: 'app' } as const;
const ROLLBACK = 'roll back';

/**
 * What other callers see of, and do during, an open transaction: a rollback undoes that
 * transaction's own writes only, and its rows are invisible to others until it commits.
 */
export const isolation: ConformanceCase[] = [
  {
    name: "a create by another caller while a transaction is open survives that transaction's rollback",
    async run({ store, adapter, make }) {
      const before = await make();
      let outside: OtherCall<{ id: number }> | undefined;
      await rejectsMatching(
        store.transaction(async (tx) => {
          await tx.create({ namespace: 'app', sessionId: 's-tx', payload: { in: 'tx' } });
          outside = await otherCaller(adapter, () => store.create({ namespace: 'app', sessionId: 's-out', payload: { out: 1 } }));
          throw new Error(ROLLBACK);
        }),
        /roll back/,
        'a transaction must fail with the error its callback threw',
      );
      const other = await outside!.result;
      ensureEqual(
        ascending(ids(await store.list(app))),
        ascending([before.id, other.id]),
        "a rollback must undo the transaction's own create only, never a create another caller completed meanwhile",
      );
    },
  },
  {
    name: "a delete by another caller while a transaction is open is not undone by that transaction's rollback",
    async run({ store, adapter, make }) {
      const victim = await make({ sessionId: 's-victim' });
      const keep = await make();
      let outside: OtherCall<unknown> | undefined;
      await rejectsMatching(
        store.transaction(async (tx) => {
          await tx.create({ namespace: 'app', sessionId: 's-tx', payload: { in: 'tx' } });
          outside = await otherCaller(adapter, () => store.delete(victim.id, { ...app, apply: true }));
          throw new Error(ROLLBACK);
        }),
        /roll back/,
        'a transaction must fail with the error its callback threw',
      );
      await outside!.result;
      ensureEqual(ids(await store.list(app)), [keep.id], 'a rollback must not bring back a row another caller deleted meanwhile');
    },
  },
  {
    name: 'reads outside an open transaction never see its uncommitted rows',
    async run({ store, adapter, make }) {
      const before = await make({ createdAt: at(1) });
      let inside = -1;
      let outside: OtherCall<{ list: number[]; latest: number | undefined; byRef: number | undefined; sessions: number[] }> | undefined;
      await rejectsMatching(
        store.transaction(async (tx) => {
          inside = (await tx.create({ namespace: 'app', sessionId: 's-1', payload: { in: 'tx' }, createdAt: at(5), sourceRef: 'inside' })).id;
          outside = await otherCaller(adapter, async () => ({
            list: ids(await store.list(app)),
            latest: (await store.latest('s-1', app))?.id,
            byRef: (await store.findBySourceRef('app', 'inside'))?.id,
            sessions: (await store.sessions(app)).map((s) => s.count),
          }));
          throw new Error(ROLLBACK);
        }),
        /roll back/,
        'a transaction must fail with the error its callback threw',
      );
      const seen = await outside!.result;
      const rule = 'reads outside an open transaction must never see its uncommitted rows';
      ensure(!seen.list.includes(inside), rule, () => `list saw row ${inside}`);
      ensureEqual(seen.latest, before.id, `${rule} (latest)`);
      ensureEqual(seen.byRef, undefined, `${rule} (findBySourceRef)`);
      ensureEqual(seen.sessions, [1], `${rule} (sessions count)`);
      ensureEqual(ids(await store.list(app)), [before.id], 'a rollback must leave only what was committed before');
    },
  },
  {
    name: 'reads outside a transaction that commits see all of its rows or none, and writes meanwhile survive the commit',
    async run({ store, adapter }) {
      const mine: number[] = [];
      let seen: OtherCall<number[]> | undefined;
      let created: OtherCall<{ id: number }> | undefined;
      await store.transaction(async (tx) => {
        mine.push((await tx.create({ namespace: 'app', sessionId: 's-tx', payload: { n: 1 } })).id);
        seen = await otherCaller(adapter, async () => ids(await store.list(app)));
        created = await otherCaller(adapter, () => store.create({ namespace: 'app', sessionId: 's-out', payload: { out: 1 } }));
        mine.push((await tx.create({ namespace: 'app', sessionId: 's-tx', payload: { n: 2 } })).id);
      });
      const visible = (await seen!.result).filter((id) => mine.includes(id));
      ensure(
        visible.length === 0 || visible.length === mine.length,
        'reads outside a transaction must see all of its rows or none of them',
        () => `saw ${visible.length} of ${mine.length} (ids ${visible.join(', ')})`,
      );
      const other = await created!.result;
      ensureEqual(ascending(ids(await store.list(app))), ascending([...mine, other.id]), 'a commit must keep both its own rows and a create another caller made meanwhile');
    },
  },
];
