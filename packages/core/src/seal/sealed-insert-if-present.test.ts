import { describe, expect, it } from 'vitest';
import { MemoryAdapter } from '../memory/memory-adapter.js';
import { CheckpointStore } from '../store/checkpoint-store.js';
import { Keyring } from './keyring.js';

/*
 * A sealed insertPreparedIfPresent outside a transaction takes the optimistic write: the required
 * rows are read after the store head it will swap is known. A deletion of a required row by
 * another store over the same data (another process) changes the store head, so the swap fails,
 * the rows are read again, and nothing is inserted.
 */
describe('sealed insertPreparedIfPresent', () => {
  const keys = new Keyring([{ id: 'k1', secret: new Uint8Array(32).fill(5) }]);

  it('inserts when the required rows are there, not after another writer deleted one, and every chain holds', async () => {
    const adapter = new MemoryAdapter();
    const store = new CheckpointStore(adapter, { keys });
    const other = new CheckpointStore(adapter, { keys });
    const parent = await store.create({ namespace: 'n', sessionId: 's', payload: { step: 0 }, sourceRef: 'p' });
    const child = await store.insertPreparedIfPresent(store.prepare({ namespace: 'n', sessionId: 's', payload: { step: 1 }, sourceRef: 'c1' }), {
      present: [{ sourceRef: 'p', payloadSha256: parent.payloadSha256 }],
    });
    expect(child?.payload).toEqual({ step: 1 });
    // A wrong hash: nothing inserted.
    expect(await store.insertPreparedIfPresent(store.prepare({ namespace: 'n', sessionId: 's', payload: { step: 9 }, sourceRef: 'c9' }), { present: [{ sourceRef: 'p', payloadSha256: '0'.repeat(64) }] })).toBeUndefined();
    // `store` still knows the store head of its last write; `other` deletes the parent meanwhile.
    expect(await other.deleteIds([parent.id], { namespace: 'n' })).toEqual([parent.id]);
    expect(await store.insertPreparedIfPresent(store.prepare({ namespace: 'n', sessionId: 's', payload: { step: 2 }, sourceRef: 'c2' }), { present: [{ sourceRef: 'p' }] })).toBeUndefined();
    expect(await store.findBySourceRef('n', 'c2')).toBeUndefined();
    const report = await store.verify();
    expect(report.failures).toEqual([]);
    expect(report.seal?.problems).toEqual([]);
    expect((await store.latest('s', { namespace: 'n' }))?.id).toBe(child?.id);
  });
});
