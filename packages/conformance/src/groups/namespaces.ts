import { isCheckpointNotFoundError } from '@session-checkpoint/core';
import { ensureEqual, rejectsWith } from '../assert.js';
import type { ConformanceCase } from '../types.js';

/** Every query that takes a namespace sees that namespace only. */
export const namespaces: ConformanceCase[] = [
  {
    name: 'an id of another namespace is not found for get and delete',
    async run({ store, make }) {
      const cp = await make({ namespace: 'app-a' });
      await rejectsWith(store.get(cp.id, { namespace: 'app-b' }), isCheckpointNotFoundError, 'get must not find an id of another namespace');
      await rejectsWith(store.delete(cp.id, { namespace: 'app-b', apply: true }), isCheckpointNotFoundError, 'delete must not find an id of another namespace');
      ensureEqual((await store.get(cp.id, { namespace: 'app-a' })).id, cp.id, 'a delete through another namespace must leave the row in place');
    },
  },
  {
    name: 'list, latest and sessions see one namespace only',
    async run({ store, make }) {
      await make({ namespace: 'app-a', sessionId: 'shared' });
      await make({ namespace: 'app-b', sessionId: 'shared' });
      const counts = [];
      for (const namespace of ['app-a', 'app-b', 'app-c']) counts.push((await store.list({ namespace })).length);
      ensureEqual(counts, [1, 1, 0], 'list must count the rows of its namespace only (app-a, app-b, app-c)');
      ensureEqual((await store.latest('shared', { namespace: 'app-a' }))?.namespace, 'app-a', 'latest must come from the namespace asked for');
      ensureEqual((await store.sessions({ namespace: 'app-b' })).map((s) => s.count), [1], 'sessions must count the rows of its namespace only');
    },
  },
];
