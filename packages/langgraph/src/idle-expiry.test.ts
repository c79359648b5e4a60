import { afterAll, describe, expect, it } from 'vitest';
import { expireIdleThreads, pinThread, scheduleThreadExpiry, SessionCheckpointSaver, unpinThread } from './index.js';
import { backends } from './test-support/backends.js';
import { cfg, checkpointWith, listThread, meta } from './test-support/checkpoints.js';

/*
 * Idle expiry of whole threads (issue 37 item 4): an idle thread goes with every row it has
 * (checkpoints, list pieces, parts of a value over the row limit, pending writes), a pinned thread
 * and a thread written since the cutoff stay whole and readable. The concurrency property is
 * tested with processes in store-kysely (idle-expiry-processes.test.ts).
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

const DAY = 86_400_000;

describe.each(list)('idle thread expiry on $name', (backend) => {
  it.skipIf(!backend.available)('deletes idle threads with all their rows; keeps pinned and recent ones whole', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const write = async (thread: string, turns: number, big = false): Promise<void> => {
        let parent: string | undefined;
        for (let i = 0; i < turns; i++) {
          const messages = Array.from({ length: i + 1 }, (_, k) => ({ role: 'user', text: big && k === 0 ? 'm'.repeat(1_200_000) : `turn ${k}` }));
          const cp = checkpointWith({ messages }, i + 1);
          const config = await saver.put(cfg(thread, parent), cp, meta(i), cp.channel_versions);
          await saver.putWrites(config, [['messages', { role: 'ai', text: `answer ${i}` }]], `task-${i}`);
          parent = config.configurable?.checkpoint_id as string;
        }
      };
      await write('idle', 4, true);
      await write('pinned', 3);
      await write('recent', 3);
      const kinds = new Set((await store.history('idle', { namespace: 'langgraph', limit: 1000 })).map((r) => r.kind));
      expect(kinds).toEqual(new Set(['langgraph.checkpoint', 'langgraph.writes', 'langgraph.part']));
      expect(await pinThread(saver, 'pinned')).toBe(false);
      // Seen from 40 days on, every thread is idle for 30 days; 'recent' is written again then.
      const later = new Date(Date.now() + 40 * DAY);
      const recentBefore = await listThread(saver, 'recent');
      const dry = await expireIdleThreads(saver, { idleFor: '30d', now: later });
      expect(dry.dryRun).toBe(true);
      expect(dry.expired.map((e) => e.sessionId)).toEqual(['idle', 'recent']);
      expect(dry.pinned.map((p) => p.sessionId)).toEqual(['pinned']);
      const cp = { ...checkpointWith({ messages: [{ role: 'user', text: 'back' }] }, 9), ts: later.toISOString() };
      await saver.put(cfg('recent', recentBefore[0]?.config.configurable?.checkpoint_id as string), cp, meta(9), cp.channel_versions);

      const applied = await expireIdleThreads(saver, { idleFor: '30d', now: later, apply: true });
      expect(applied.expired.map((e) => e.sessionId)).toEqual(['idle']);
      expect(applied.expired[0]?.deleted.length).toBe(applied.expired[0]?.rows);
      expect(await store.history('idle', { namespace: 'langgraph', limit: 10 })).toEqual([]);
      expect(await saver.getTuple(cfg('idle'))).toBeUndefined();
      expect((await listThread(saver, 'pinned')).length).toBe(3);
      expect((await listThread(saver, 'recent')).length).toBe(4);
      expect((await store.verify()).failures).toEqual([]);

      expect(await unpinThread(saver, 'pinned')).toBe(true);
      const next = await expireIdleThreads(saver, { idleFor: '30d', now: later, apply: true });
      expect(next.expired.map((e) => e.sessionId)).toEqual(['pinned']);
    } finally {
      await store.close();
    }
  });
});

describe('scheduleThreadExpiry', () => {
  it('refuses a bad period up front, and stops cleanly', async () => {
    const store = await list[0]!.open();
    const saver = new SessionCheckpointSaver(store);
    expect(() => scheduleThreadExpiry(saver, { idleFor: '30d', every: 'hourly' })).toThrow(/every must be a duration/);
    const expiry = scheduleThreadExpiry(saver, { idleFor: '30d', every: '1h' });
    await expiry.stop();
    await store.close();
  });
});
