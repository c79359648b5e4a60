import { CheckpointConflictError } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { backends } from './test-support/backends.js';
import { cfg, checkpointWith, meta } from './test-support/checkpoints.js';

/*
 * A put of a checkpoint id already stored (a retry after a lost answer): accepted as a no-op when
 * the stored checkpoint rebuilds to the same content, however the two savers laid it out; refused
 * with CheckpointConflictError naming what differs otherwise, leaving the store as it was.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

const item = (n: number) => ({ id: `m${n}`, text: `message ${n} ${'x'.repeat(40)}` });

describe.each(list)('a repeated put on $name', (backend) => {
  it.skipIf(!backend.available)('by a new saver with the same content is a no-op, and the next put extends it', async () => {
    const store = await backend.open();
    try {
      const first = new SessionCheckpointSaver(store, { namespace: 'rp1' });
      const c0 = checkpointWith({ items: [item(0)] });
      const p0 = await first.put(cfg('t'), c0, meta(0), { items: 1 });
      // The first saver knows c0's list: c1 is stored as the appended item only.
      const c1 = checkpointWith({ items: [item(0), item(1)] }, 2);
      const args = [cfg('t', c0.id), c1, meta(1), { items: 2 }] as const;
      await first.put(...args);
      const rows = (await store.verify()).checked;
      // A new saver knows nothing of c0: it lays c1 out in full, another row for the same content.
      const second = new SessionCheckpointSaver(store, { namespace: 'rp1' });
      expect(await second.put(...args)).toEqual({ configurable: { thread_id: 't', checkpoint_ns: '', checkpoint_id: c1.id } });
      expect((await store.verify()).checked).toBe(rows);
      expect((await second.getTuple(cfg('t', c1.id)))?.checkpoint.channel_values).toEqual({ items: [item(0), item(1)] });
      // The next put of the new saver, from the repeated checkpoint, reads back.
      const c2 = checkpointWith({ items: [item(0), item(1), item(2)] }, 3);
      await second.put(cfg('t', c1.id), c2, meta(2), { items: 3 });
      const fresh = new SessionCheckpointSaver(store, { namespace: 'rp1' });
      expect((await fresh.getTuple(cfg('t', c2.id)))?.checkpoint.channel_values).toEqual({ items: [item(0), item(1), item(2)] });
      expect(p0.configurable?.checkpoint_id).toBe(c0.id);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('with other content is a conflict naming what differs, and changes nothing', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store, { namespace: 'rp2' });
      const c0 = checkpointWith({ items: [item(0)], mood: 'calm' });
      await saver.put(cfg('t'), c0, meta(0), { items: 1, mood: 1 });
      const before = await store.verify();
      const edited = { ...c0, channel_values: { items: [item(0), item(1)], mood: 'calm' } };
      const other = new SessionCheckpointSaver(store, { namespace: 'rp2' });
      const error = await other.put(cfg('t'), edited, meta(0), { items: 1, mood: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckpointConflictError);
      expect((error as Error).message).toMatch(/already exists with other content: channel 'items' differs/);
      const renamed = await other.put(cfg('t'), c0, { ...meta(0), step: 9 }, { items: 1, mood: 1 }).catch((e: unknown) => e);
      expect((renamed as Error).message).toMatch(/the metadata differs/);
      const forked = await other.put(cfg('t', 'some-parent'), c0, meta(0), { items: 1, mood: 1 }).catch((e: unknown) => e);
      expect((forked as Error).message).toMatch(/the parent \(stored null, given some-parent\) differs/);
      const after = await store.verify();
      expect(after.checked).toBe(before.checked);
      expect((await other.getTuple(cfg('t', c0.id)))?.checkpoint.channel_values).toEqual({ items: [item(0)], mood: 'calm' });
    } finally {
      await store.close();
    }
  });
});
