import { isCheckpointConflictError } from '@session-checkpoint/core';
import { ensure, ensureEqual, rejectsWith } from '../assert.js';
import { at, ids as idsOf } from '../context.js';
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
  {
    name: 'the highest id is 2^53 - 1: a create that would pass it is refused and writes nothing',
    async run({ store }) {
      const top = Number.MAX_SAFE_INTEGER;
      const prepared = store.prepare({ namespace: 'app', sessionId: 's', payload: { a: 1 }, createdAt: at(0) });
      ensureEqual((await store.insertPrepared({ ...prepared, id: top })).id, top, 'an explicit id of 2^53 - 1 must be kept');
      const rule = 'a create that would be given an id above 2^53 - 1 must be refused with CheckpointConflictError';
      for (const attempt of [1, 2]) {
        const error = await rejectsWith(store.create({ namespace: 'app', sessionId: 's', payload: { attempt } }), isCheckpointConflictError, rule);
        ensure(error.message.includes(String(top)), 'the refusal must name the id limit', error.message);
      }
      ensureEqual(idsOf(await store.list({ namespace: 'app' })), [top], 'a create refused at the id limit must write nothing');
      const report = await store.verify();
      ensureEqual([report.checked, report.ok], [1, 1], 'every row must still verify after creates refused at the id limit');
    },
  },
];
