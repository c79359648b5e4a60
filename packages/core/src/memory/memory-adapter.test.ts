import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../store/checkpoint-store.js';
import { MemoryAdapter } from './memory-adapter.js';

// latestRow is served from a per-session cache; these cases change the newest row behind it.
describe('MemoryAdapter latest-row cache', () => {
  const at = (minute: number) => `2026-08-08T07:${String(minute).padStart(2, '0')}:00Z`;
  const setup = () => {
    const adapter = new MemoryAdapter();
    const store = new CheckpointStore(adapter);
    const make = (minute: number, sessionId = 's') => store.create({ namespace: 'app', sessionId, payload: { minute }, createdAt: at(minute) });
    const latestId = async (sessionId = 's') => (await store.latest(sessionId, { namespace: 'app' }))?.id;
    return { adapter, store, make, latestId };
  };

  it('follows inserts, including an older created_at inserted later', async () => {
    const { make, latestId } = setup();
    const newer = await make(5);
    expect(await latestId()).toBe(newer.id);
    await make(1);
    expect(await latestId()).toBe(newer.id);
    const newest = await make(9);
    expect(await latestId()).toBe(newest.id);
    expect(await latestId('other')).toBeUndefined();
  });

  it('recomputes after the newest row is deleted, pruned or rolled back', async () => {
    const { store, make, latestId } = setup();
    const a = await make(1);
    const b = await make(2);
    expect(await latestId()).toBe(b.id);
    await store.delete(b.id, { namespace: 'app', apply: true });
    expect(await latestId()).toBe(a.id);
    await expect(
      store.transaction(async (tx) => {
        await tx.create({ namespace: 'app', sessionId: 's', payload: {}, createdAt: at(30) });
        expect(await tx.latest('s', { namespace: 'app' })).toMatchObject({ createdAt: at(30) });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await latestId()).toBe(a.id);
    const c = await store.create({ namespace: 'app', sessionId: 's', payload: {}, createdAt: at(3) }, { keepLatest: 1 });
    expect(await latestId()).toBe(c.id);
    await store.deleteSession('s', { namespace: 'app', apply: true });
    expect(await latestId()).toBeUndefined();
  });

  it('sees tampering of the cached row', async () => {
    const { adapter, store, make } = setup();
    const row = await make(1);
    await store.latest('s', { namespace: 'app' });
    await adapter.tamperForTesting(row.id, { payloadJson: '{"minute":2}' });
    await expect(store.latest('s', { namespace: 'app' })).rejects.toThrow(/integrity/);
  });
});
