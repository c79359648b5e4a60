import { isCheckpointConflictError } from '@session-checkpoint/core';
import { ensure, ensureEqual, rejectsWith } from '../assert.js';
import { at } from '../context.js';
import type { ConformanceCase } from '../types.js';

/** Ids ascend and are never reused; explicit ids are kept. */
export const ids: ConformanceCase[] = [
  {
    name: 'ids ascend and are never reused after deleting the highest',
    async run({ store, make }) {
      const a = await make();
      const b = await make();
      ensure(b.id > a.id, 'ids must ascend', () => `got ${b.id} after ${a.id}`);
      await store.delete(b.id, { namespace: 'app', apply: true });
      const c = await make();
      ensure(c.id !== b.id, 'ids must never be reused after delete', () => `got ${c.id} twice`);
      ensure(c.id > b.id, 'ids must stay above every id ever used', () => `got ${c.id} after deleting ${b.id}`);
    },
  },
  {
    name: 'an explicit id is kept and later ids stay above it; a taken id conflicts',
    async run({ store }) {
      const prepared = store.prepare({ namespace: 'app', sessionId: 's', payload: { a: 1 }, createdAt: at(0) });
      const explicit = await store.insertPrepared({ ...prepared, id: 500 });
      ensureEqual(explicit.id, 500, 'an explicit id must be kept');
      const next = await store.create({ namespace: 'app', sessionId: 's', payload: { a: 2 } });
      ensure(next.id > 500, 'ids assigned after an explicit id must be above it', () => `got ${next.id} after 500`);
      await rejectsWith(store.insertPrepared({ ...prepared, id: 500 }), isCheckpointConflictError, 'a taken explicit id must fail with CheckpointConflictError');
      ensureEqual((await store.findById(500))?.id, 500, 'a failed insert must leave the holder of the id in place');
    },
  },
];
