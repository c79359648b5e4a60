import { describe, expect, it } from 'vitest';
import { MemoryAdapter } from '../memory/memory-adapter.js';
import { parseDuration } from '../validation/duration.js';
import { CheckpointStore } from './checkpoint-store.js';
import { scheduleIdleExpiry, type ExpireIdleResult } from './idle-expiry.js';

const NOW = new Date('2026-06-01T00:00:00Z');

async function filled(): Promise<CheckpointStore> {
  const store = new CheckpointStore(new MemoryAdapter(), { now: () => NOW });
  await store.create({ namespace: 'a', sessionId: 'old', createdAt: '2026-01-01T00:00:00Z', payload: { n: 1 } });
  await store.create({ namespace: 'a', sessionId: 'old', createdAt: '2026-01-02T00:00:00Z', payload: { n: 2 } });
  await store.create({ namespace: 'a', sessionId: 'recent', createdAt: '2026-05-30T00:00:00Z', payload: { n: 3 } });
  await store.create({ namespace: 'b', sessionId: 'old', createdAt: '2026-02-01T00:00:00Z', payload: { n: 4 } });
  return store;
}

describe('parseDuration', () => {
  it.each([
    ['30d', 30 * 86_400_000],
    ['12h', 12 * 3_600_000],
    ['1d12h', 36 * 3_600_000],
    ['2w', 14 * 86_400_000],
    ['90s', 90_000],
    ['5m', 300_000],
    [1500, 1500],
  ] as const)('%s', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', '30', 'd', '30 d', '1.5d', '-1d', '30D', '1y', '3mo', 0, -5, 1.5, null])('refuses %j', (value) => {
    expect(() => parseDuration(value, 'idleFor')).toThrow(/idleFor must be/);
  });
});

describe('expireIdle on the memory adapter', () => {
  it('selects by the newest write per session and namespace, from the store clock; pins keep sessions', async () => {
    const store = await filled();
    const dry = await store.expireIdle({ idleFor: '30d' });
    expect(dry.cutoff).toBe('2026-05-02T00:00:00Z');
    expect(dry.expired.map((e) => `${e.namespace}/${e.sessionId}:${e.rows}`)).toEqual(['a/old:2', 'b/old:1']);
    expect(await store.pin('old', { namespace: 'b' })).toBe(false);
    expect(await store.pins()).toEqual([{ namespace: 'b', sessionId: 'old', pinnedAt: '2026-06-01T00:00:00Z' }]);
    const applied = await store.expireIdle({ idleFor: '30d', apply: true });
    expect(applied.expired.map((e) => e.deleted)).toEqual([[1, 2]]);
    expect(applied.pinned.map((p) => `${p.namespace}/${p.sessionId}`)).toEqual(['b/old']);
    expect((await store.stats()).totals).toEqual({ namespaces: 2, sessions: 2, rows: 2, bytes: 14 });
    expect(await store.unpin('old', { namespace: 'b' })).toBe(true);
    expect(await store.unpin('old', { namespace: 'b' })).toBe(false);
    expect((await store.expireIdle({ idleFor: '30d', namespace: 'a', apply: true })).expired).toEqual([]);
  });

  it('scheduleIdleExpiry sweeps in the background until stopped', async () => {
    const store = await filled();
    const results: ExpireIdleResult[] = [];
    let resolve: () => void = () => undefined;
    const first = new Promise<void>((r) => (resolve = r));
    const expiry = scheduleIdleExpiry(store, { idleFor: '30d', every: 5, onResult: (result) => { results.push(result); resolve(); } });
    await first;
    await expiry.stop();
    expect(results[0]?.expired.map((e) => `${e.namespace}/${e.sessionId}`)).toEqual(['a/old', 'b/old']);
    expect((await store.sessions({ namespace: 'a' })).map((s) => s.sessionId)).toEqual(['recent']);
  });
});
