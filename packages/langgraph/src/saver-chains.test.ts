import type { CheckpointStore } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { backends } from './test-support/backends.js';
import { cfg, checkpointWith, meta } from './test-support/checkpoints.js';

/*
 * A long chain of list pieces reached through a carried value: the value rebuilder must read the
 * whole chain however many links it has. It once followed unread links one round trip at a time,
 * for at most 64 rounds, and a checkpoint of a long chat then failed closed ("the piece before
 * checkpoint X ... is missing") though every row was in the store.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

const LINKS = 100;

describe.each(list)('a long list chain on $name', (backend) => {
  it.skipIf(!backend.available)(`reads back a value ${LINKS} pieces deep, reached through a carried link, from a fresh saver`, async () => {
    const store: CheckpointStore = await backend.open();
    try {
      // Every append a piece (a high ratio: no snapshot), every unchanged value linked (no inlining).
      const options = { snapshotRatio: 1000, inlineCarriedBytes: 0 };
      const saver = new SessionCheckpointSaver(store, options);
      let items = ['item 0'];
      let parent = (await saver.put(cfg('t'), checkpointWith({ messages: items, step: 0 }, 1), meta(0), { messages: 1, step: 1 })).configurable?.checkpoint_id as string;
      for (let i = 1; i <= LINKS; i++) {
        items = [...items, `item ${i}`];
        const cp = checkpointWith({ messages: items, step: 0 }, 1, { messages: i + 1, step: 1 });
        parent = (await saver.put(cfg('t', parent), cp, meta(i), { messages: i + 1 })).configurable?.checkpoint_id as string;
      }
      // The last checkpoint changes only `step`: its messages are a link to the end of the chain.
      const last = checkpointWith({ messages: items, step: 1 }, 1, { messages: LINKS + 1, step: 2 });
      await saver.put(cfg('t', parent), last, meta(LINKS + 1), { step: 2 });

      const fresh = new SessionCheckpointSaver(store, options);
      const latest = await fresh.getTuple(cfg('t'));
      expect(latest?.checkpoint.id).toBe(last.id);
      expect(latest?.checkpoint.channel_values).toEqual({ messages: items, step: 1 });
      const byId = await new SessionCheckpointSaver(store, options).getTuple(cfg('t', last.id));
      expect(byId?.checkpoint.channel_values.messages).toEqual(items);
      let count = 0;
      for await (const tuple of new SessionCheckpointSaver(store, options).list(cfg('t'))) {
        const n = (tuple.checkpoint.channel_values.messages as string[]).length;
        expect(tuple.checkpoint.channel_values.messages).toEqual(items.slice(0, n));
        count++;
      }
      expect(count).toBe(LINKS + 2);
    } finally {
      await store.close();
    }
  });
});
