import { CheckpointStore } from '@session-checkpoint/core';
import { ensure, ensureEqual } from '../assert.js';
import type { ConformanceCase } from '../types.js';

/** Data outlives the adapter that wrote it (adapters that declare `persistent`). */
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
];
