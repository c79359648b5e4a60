import { Checkpointer } from '@session-checkpoint/core';
import { ensureEqual } from '../assert.js';
import { at, ids } from '../context.js';
import type { ConformanceCase } from '../types.js';

const ascending = (values: number[]) => [...values].sort((x, y) => x - y);

/** keepLatest, prune, deleteSession and the Checkpointer's maxHistory. */
export const retention: ConformanceCase[] = [
  {
    name: 'keepLatest on create keeps the newest N of that session only',
    async run({ store, make }) {
      const other = await make({ sessionId: 'other' });
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await store.create({ namespace: 'app', sessionId: 's-1', payload: { i }, createdAt: at(i) }, { keepLatest: 3 }));
      ensureEqual(ids(await store.history('s-1', { namespace: 'app' })), ids(made.slice(2)).reverse(), 'keepLatest must keep the newest N rows of the session');
      ensureEqual((await store.get(other.id, { namespace: 'app' })).id, other.id, 'keepLatest must not touch other sessions');
    },
  },
  {
    name: 'prune selects by count and/or age, dry run unless applied',
    async run({ store, make }) {
      const s1 = [await make({ createdAt: at(1) }), await make({ createdAt: at(2) }), await make({ createdAt: at(3) })];
      const s2 = [await make({ sessionId: 's-2', createdAt: at(1) })];
      const byCount = await store.prune({ namespace: 'app', keepLatest: 1 });
      ensureEqual([byCount.dryRun, byCount.selected], [true, [s1[0]!.id, s1[1]!.id]], 'prune by count must select all but the newest N per session, as a dry run');
      ensureEqual((await store.list({ namespace: 'app' })).length, 4, 'a dry-run prune must delete nothing');
      const byAge = await store.prune({ namespace: 'app', olderThan: at(2) });
      ensureEqual(byAge.selected, ascending([s1[0]!.id, s2[0]!.id]), 'prune by age must select rows strictly older than the bound');
      const both = await store.prune({ namespace: 'app', keepLatest: 1, olderThan: at(2), apply: true });
      ensureEqual(both.deleted, [s1[0]!.id], 'prune by count and age must select rows matching both');
      ensureEqual(ascending(ids(await store.list({ namespace: 'app' }))), ascending([s1[1]!.id, s1[2]!.id, s2[0]!.id]), 'an applied prune must delete what it selected, only that');
    },
  },
  {
    name: 'deleteSession removes one session of one namespace',
    async run({ store, make }) {
      await make();
      await make();
      const keep = await make({ sessionId: 's-2' });
      const elsewhere = await make({ namespace: 'other' });
      ensureEqual((await store.deleteSession('s-1', { namespace: 'app' })).selected.length, 2, 'deleteSession must select every row of the session');
      ensureEqual((await store.deleteSession('s-1', { namespace: 'app', apply: true })).deleted.length, 2, 'an applied deleteSession must delete them');
      ensureEqual(ids(await store.list({ namespace: 'app' })), [keep.id], 'deleteSession must leave other sessions alone');
      ensureEqual((await store.get(elsewhere.id, { namespace: 'other' })).id, elsewhere.id, 'deleteSession must leave other namespaces alone');
    },
  },
  {
    name: 'Checkpointer keeps maxHistory under concurrent puts',
    async run({ store }) {
      const threads = new Checkpointer(store, { namespace: 'agents', maxHistory: 5 });
      await Promise.all(Array.from({ length: 30 }, (_, i) => threads.put('t-1', { i })));
      await threads.put('t-2', { i: 0 });
      const history = await threads.history('t-1', 100);
      ensureEqual(history.length, 5, 'maxHistory must hold under 30 concurrent puts');
      ensureEqual(await threads.get('t-1'), history[0]?.state, 'get must return the newest state of the thread');
      ensureEqual((await threads.threads()).sort(), ['t-1', 't-2'], 'threads must list every thread');
      ensureEqual(await threads.delete('t-1'), 5, 'delete must remove the whole thread');
      ensureEqual(await threads.get('t-1'), undefined, 'a deleted thread must be gone');
    },
  },
];
