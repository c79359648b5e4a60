import { ensureEqual } from '../assert.js';
import { at, ids } from '../context.js';
import type { ConformanceCase } from '../types.js';

/** The one order of the contract: created_at descending, then id descending; and paging. */
export const ordering: ConformanceCase[] = [
  {
    name: 'list orders by created_at desc, then id desc, and pages with limit/offset',
    async run({ store, make }) {
      const a = await make({ createdAt: at(1) });
      const b = await make({ createdAt: at(3) });
      const c = await make({ createdAt: at(1) });
      const d = await make({ createdAt: at(2), sessionId: 's-2' });
      ensureEqual(ids(await store.list({ namespace: 'app' })), [b.id, d.id, c.id, a.id], 'list must order by created_at desc, then id desc');
      ensureEqual(ids(await store.list({ namespace: 'app', limit: 2, offset: 1 })), [d.id, c.id], 'limit/offset must page that order');
      ensureEqual(ids(await store.list({ namespace: 'app', offset: 100 })), [], 'an offset past the end must give an empty page');
      ensureEqual(ids(await store.list({ namespace: 'app', sessionId: 's-1' })), [b.id, c.id, a.id], 'a session filter must keep the order');
      ensureEqual(ids(await store.history('s-1', { namespace: 'app', limit: 1 })), [b.id], 'history must start with the newest row');
      ensureEqual((await store.latest('s-1', { namespace: 'app' }))?.id, b.id, 'latest must be the first row of that order');
      ensureEqual(await store.latest('nobody', { namespace: 'app' }), undefined, 'latest of an unknown session must be undefined');
    },
  },
  {
    name: 'timestamps with offsets are normalised to UTC before ordering',
    async run({ store, make }) {
      const early = await make({ createdAt: '2026-08-08T09:30:00+02:00' });
      const late = await make({ createdAt: '2026-08-08T08:00:00Z' });
      ensureEqual(early.createdAt, '2026-08-08T07:30:00Z', 'created_at must be stored normalised to UTC');
      ensureEqual(ids(await store.list({ namespace: 'app' })), [late.id, early.id], 'ordering must use the normalised timestamps');
    },
  },
  {
    name: 'sessions lists each session with its count and newest row, most recent first',
    async run({ store, make }) {
      await make({ sessionId: 'old', createdAt: at(1) });
      const newest = await make({ sessionId: 'new', createdAt: at(5) });
      await make({ sessionId: 'old', createdAt: at(2) });
      const sessions = await store.sessions({ namespace: 'app' });
      ensureEqual(sessions.map((s) => [s.sessionId, s.count]), [['new', 1], ['old', 2]], 'sessions must list each session with its count, most recent first');
      ensureEqual([sessions[0]?.latestId, sessions[1]?.latestCreatedAt], [newest.id, at(2)], 'each session must carry its newest row');
    },
  },
  {
    name: 'scanRows pages by id ascending, optionally within a namespace',
    async run({ adapter, make }) {
      const a = await make({ namespace: 'x' });
      const b = await make({ namespace: 'y' });
      const c = await make({ namespace: 'x' });
      ensureEqual(ids(await adapter.scanRows({ afterId: 0, limit: 10 })), [a.id, b.id, c.id], 'scanRows must return every row by id ascending');
      ensureEqual(ids(await adapter.scanRows({ afterId: a.id, limit: 1 })), [b.id], 'scanRows must start after afterId and stop at limit');
      ensureEqual(ids(await adapter.scanRows({ namespace: 'x', afterId: 0, limit: 10 })), [a.id, c.id], 'scanRows with a namespace must see that namespace only');
    },
  },
];
