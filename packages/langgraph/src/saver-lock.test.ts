import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { checkpointRef } from './format/refs.js';
import { backends } from './test-support/backends.js';
import { cfg, checkpointWith, meta } from './test-support/checkpoints.js';
import { lockThread } from './write/thread-lock.js';

/*
 * A put links to rows that prune and deleteThread may remove, so it must not slip between their
 * reads and their deletes. Here a transaction does what they do (takes the thread's lock, reads,
 * then deletes a row the next put links to) with a put started in between: the put must wait for
 * the transaction and then store in full what it can no longer link to. A put that did not wait
 * would link to the deleted row, and the thread would no longer read.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.each(list)('the thread lock on $name', (backend) => {
  it.skipIf(!backend.available)('a put waits for a transaction holding its thread lock and stores in full what that transaction deleted', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const first = checkpointWith({ big: 'b'.repeat(10_000), turn: 1 });
      const c1 = await saver.put(cfg('locked'), first, meta(0), first.channel_versions);
      const second = { ...checkpointWith({ big: 'b'.repeat(10_000), turn: 2 }), channel_versions: { big: 1, turn: 2 } };
      let put: Promise<unknown> | undefined;
      await store.transaction(async (tx) => {
        await lockThread(tx, saver.namespace, 'locked');
        const holder = await tx.findBySourceRef(saver.namespace, checkpointRef('locked', '', first.id));
        put = saver.put(c1, second, meta(1), { turn: 2 });
        // Time for a put that does not wait to link to the row; one that waits sees it gone.
        await new Promise((resolve) => setTimeout(resolve, 150));
        if (holder) await tx.delete(holder.id, { namespace: saver.namespace, apply: true, force: true });
      });
      await put;
      const latest = await saver.getTuple(cfg('locked'));
      expect(latest?.checkpoint.id).toBe(second.id);
      expect(latest?.checkpoint.channel_values).toEqual({ big: 'b'.repeat(10_000), turn: 2 });
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
