import fc from 'fast-check';
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

/*
 * The memo remembers rows as the store writes them, with their plaintext's hash. Only a create
 * knows that hash: rows that rekey (and sealed import) re-seal carry their stored envelope's hash.
 * Reads of the store that rotated its keys must equal a fresh store's reads of the same rows.
 */
describe('the memo after rekey', () => {
  const oldKeys = new Keyring([{ id: 'old', secret: new Uint8Array(32).fill(5) }]);
  const newKeys = new Keyring([{ id: 'new', secret: new Uint8Array(32).fill(6) }]);
  const payload = fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.boolean(), fc.constant(null)), { maxKeys: 5 });

  it('reads of the store that rekeyed equal a fresh store\'s, row by row (generated rows, read before and after)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ session: fc.constantFrom('s1', 's2'), payload, readBefore: fc.boolean() }), { minLength: 1, maxLength: 8 }), async (rows) => {
        const adapter = new MemoryAdapter();
        const writer = new CheckpointStore(adapter, { keys: oldKeys });
        const ids: number[] = [];
        for (const r of rows) ids.push((await writer.create({ namespace: 'n', sessionId: r.session, payload: r.payload })).id);
        const rotating = new CheckpointStore(adapter, { keys: oldKeys.with(newKeys) });
        for (const [i, r] of rows.entries()) if (r.readBefore) await rotating.get(ids[i]!, { namespace: 'n' });
        await rotating.rekey({ apply: true });
        const fresh = new CheckpointStore(adapter, { keys: newKeys });
        for (const id of ids) {
          const seen = await rotating.get(id, { namespace: 'n' });
          const expected = await fresh.get(id, { namespace: 'n' });
          expect(seen).toEqual(expected);
        }
      }),
      { numRuns: 40 },
    );
  });
});
