import { CheckpointStore } from '@session-checkpoint/core';
import { ensure, ensureEqual } from '../assert.js';
import { at } from '../context.js';
import type { ConformanceCase } from '../types.js';

/** Data and the id sequence outlive the adapter that wrote them (adapters that declare `persistent`). */
export const persistence: ConformanceCase[] = [
  {
    name: 'data survives a second adapter over the same store',
    requires: 'persistent',
    async run({ subject, make }) {
      const cp = await make({ payloadJson: '{"x":1.0}' });
      ensure(subject.reopen, 'a persistent subject must provide reopen()');
      const second = await subject.reopen();
      try {
        const again = await new CheckpointStore(second).get(cp.id, { namespace: 'app' });
        ensureEqual(again.payloadJson, '{"x":1.0}', 'a second adapter over the same store must read what the first wrote');
      } finally {
        await second.close();
      }
    },
  },
  {
    name: 'ids are never reused after deleting the highest row, closing and reopening',
    requires: 'persistent',
    async run({ subject, adapter, store, make }) {
      await make();
      const highest = await make({ createdAt: at(1) });
      await store.delete(highest.id, { namespace: 'app', apply: true });
      // The id sequence must live in the store, not in the adapter object that handed the id out.
      await adapter.close();
      ensure(subject.reopen, 'a persistent subject must provide reopen()');
      const second = await subject.reopen();
      try {
        const next = await new CheckpointStore(second).create({ namespace: 'app', sessionId: 's-1', payload: { n: 2 }, createdAt: at(2) });
        const rule = 'ids must never be reused, not even after deleting the highest row, closing and reopening the store';
        ensure(next.id !== highest.id, rule, () => `got ${next.id} twice`);
        ensure(next.id > highest.id, rule, () => `got ${next.id} after deleting ${highest.id}`);
      } finally {
        await second.close();
      }
    },
  },
];
