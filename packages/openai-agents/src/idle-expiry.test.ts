import { CheckpointStore } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointSession, expireIdleSessions } from './index.js';
import { backends } from './test-support/backends.js';

/*
 * Idle expiry of whole Agents sessions (issue 37 item 4): an idle session goes with all its rows, a
 * pinned one and one written since stay whole. The concurrency property is tested with processes
 * in store-kysely (idle-expiry-processes.test.ts).
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.each(list)('idle session expiry on $name', (backend) => {
  it.skipIf(!backend.available)('deletes idle sessions whole; keeps pinned and written ones', async () => {
    const store = await backend.open(backend.target());
    try {
      const session = (sessionId: string) => new CheckpointSession(store, { sessionId });
      for (const id of ['idle', 'pinned', 'busy']) {
        await session(id).addItems([{ role: 'user', content: `hello from ${id}` }]);
        await session(id).addItems([{ role: 'user', content: 'x'.repeat(2000) }]);
      }
      await store.pin('pinned', { namespace: 'openai-agents' });
      const later = new Date(Date.now() + 40 * 86_400_000);
      const dry = await expireIdleSessions(store, { idleFor: '30d', now: later });
      expect(dry.expired.map((e) => e.sessionId)).toEqual(['busy', 'idle']);
      // 'busy' is written at the later time (by a store whose clock says so): no longer idle.
      await new CheckpointSession(new CheckpointStore(store.adapter, { now: () => later }), { sessionId: 'busy' }).addItems([{ role: 'user', content: 'back' }]);
      const applied = await expireIdleSessions(store, { idleFor: '30d', now: later, apply: true });
      expect(applied.expired.map((e) => e.sessionId)).toEqual(['idle']);
      expect(await session('idle').getItems()).toEqual([]);
      expect((await session('pinned').getItems()).length).toBe(2);
      expect((await session('busy').getItems()).length).toBe(3);
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
