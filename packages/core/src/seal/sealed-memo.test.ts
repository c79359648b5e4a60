import { describe, expect, it } from 'vitest';
import { CheckpointIntegrityError } from '../errors.js';
import { MemoryAdapter } from '../memory/memory-adapter.js';
import { CheckpointStore } from '../store/checkpoint-store.js';
import { Keyring } from './keyring.js';

/*
 * The memo of opened rows (sealed-reader.ts) answers a row whose stored text and identity equal
 * one opened before. The id is part of that identity: two rows alike in every other column (one
 * second, default names, no source ref) whose envelopes were swapped behind the store's back must
 * fail, also after both were read (or written) by this store.
 */
describe('the memo of opened rows', () => {
  const keys = new Keyring([{ id: 'k1', secret: new Uint8Array(32).fill(3) }]);
  const at = '2026-08-08T07:00:00Z';

  for (const readFirst of [true, false]) {
    it(`two rows alike but for their id, envelopes swapped after they were ${readFirst ? 'read' : 'written'}: both fail`, async () => {
      const adapter = new MemoryAdapter();
      const store = new CheckpointStore(adapter, { keys });
      const a = await store.create({ namespace: 'n', sessionId: 's', createdAt: at, payload: { who: 'a' } });
      const b = await store.create({ namespace: 'n', sessionId: 's', createdAt: at, payload: { who: 'b' } });
      if (readFirst) {
        expect((await store.get(a.id, { namespace: 'n' })).payload).toEqual({ who: 'a' });
        expect((await store.get(b.id, { namespace: 'n' })).payload).toEqual({ who: 'b' });
      }
      const rowA = await adapter.getRow(a.id, 'n');
      const rowB = await adapter.getRow(b.id, 'n');
      if (!rowA || !rowB) throw new Error('rows missing');
      expect({ ...rowA, id: 0, payloadJson: '', payloadSha256: '' }).toEqual({ ...rowB, id: 0, payloadJson: '', payloadSha256: '' });
      await adapter.updatePayload(a.id, 'n', rowB.payloadJson, rowB.payloadSha256);
      await adapter.updatePayload(b.id, 'n', rowA.payloadJson, rowA.payloadSha256);
      await expect(store.get(a.id, { namespace: 'n' })).rejects.toThrow(CheckpointIntegrityError);
      await expect(store.get(b.id, { namespace: 'n' })).rejects.toThrow(CheckpointIntegrityError);
    });
  }
});
