import { isCheckpointConflictError, isCheckpointNotFoundError, type CreateCheckpointInput, type NewCheckpointRow } from '@session-checkpoint/core';
import { ensure, ensureEqual, rejectsWith } from '../assert.js';
import { at, type CaseContext } from '../context.js';
import type { ConformanceCase } from '../types.js';

/** Create, get and delete of single rows, with every column returned exactly as stored. */
export const crud: ConformanceCase[] = [
  {
    name: 'create then get returns the same fields and exact payload text',
    async run({ store, make }) {
      const created = await make({ payloadJson: '{"b":1.0,"a":12345678901234567890}', name: 'first', kind: 'snap', sourceRef: 'ref:1' });
      const got = await store.get(created.id, { namespace: 'app' });
      ensureEqual(got.payloadJson, '{"a":12345678901234567890,"b":1.0}', 'the payload text must come back byte for byte as stored');
      ensureEqual({ ...got, payload: undefined }, { ...created, payload: undefined }, 'get must return the fields create returned');
      ensureEqual(
        [got.sessionId, got.name, got.kind, got.sourceRef, got.createdAt],
        ['s-1', 'first', 'snap', 'ref:1', at(0)],
        'session id, name, kind, source_ref and created_at must be stored as given',
      );
    },
  },
  {
    name: 'insertMany inserts a batch in order, all or nothing',
    requires: 'insertMany',
    async run({ adapter, store, make }) {
      const insertMany = (rows: NewCheckpointRow[]) => (adapter.insertMany as NonNullable<typeof adapter.insertMany>).call(adapter, rows);
      const row = (input: Partial<CreateCheckpointInput>) => newRow(store, input);
      ensureEqual(await insertMany([]), [], 'an empty batch must insert nothing and give no ids');
      const held = await make({ sourceRef: 'held' });
      const batch = [row({ sourceRef: 'b/1', name: 'one' }), row({ sourceRef: null, name: 'two' }), row({ namespace: 'other', sourceRef: 'b/1', name: 'three' })];
      const ids = await insertMany(batch);
      ensureEqual(ids.length, 3, 'insertMany must give one id per row');
      ensure(ids.every((id, k) => k === 0 ? id > held.id : id > (ids[k - 1] as number)), 'the ids must ascend in the order of the rows', () => `got ${ids.join(', ')} after ${held.id}`);
      for (const [k, id] of ids.entries()) {
        const expected = batch[k] as NewCheckpointRow;
        ensureEqual(await adapter.getRow(id, (batch[k] as NewCheckpointRow).namespace), { ...expected, id }, 'each row must be stored with its id, as given');
      }
      const count = async () => (await adapter.scanRows({ afterId: Number.NEGATIVE_INFINITY, limit: 1000 })).length;
      const before = await count();
      const taken = await rejectsWith(insertMany([row({ sourceRef: 'n/1' }), row({ sourceRef: 'held' })]), isCheckpointConflictError, 'a batch with a ref a stored row holds must be refused');
      ensureEqual(taken.ids, [held.id], 'the refusal must name the stored row that holds the ref');
      const twice = await rejectsWith(insertMany([row({ sourceRef: 'n/2' }), row({ sourceRef: 'n/3' }), row({ sourceRef: 'n/2' })]), isCheckpointConflictError, 'a batch whose rows share a ref must be refused');
      ensureEqual(twice.ids, [], 'a refusal for a ref an earlier row of the batch holds must name no id');
      await adapter.transaction(async (tx) => {
        await rejectsWith((tx.insertMany as NonNullable<typeof tx.insertMany>).call(tx, [row({ sourceRef: 'n/4' }), row({ sourceRef: 'held' })]), isCheckpointConflictError, 'a refused batch inside a transaction must throw');
        await tx.insert(row({ sourceRef: 'n/5' }));
      });
      ensureEqual(await count(), before + 1, 'a refused batch must leave no row behind, also inside a transaction that goes on');
      for (const ref of ['n/1', 'n/2', 'n/3', 'n/4']) ensureEqual(await adapter.findBySourceRef('app', ref), undefined, `no row of a refused batch may stay (${ref})`);
    },
  },
  {
    name: 'get of a missing id is not found',
    async run({ store }) {
      await rejectsWith(store.get(12345, { namespace: 'app' }), isCheckpointNotFoundError, 'get of a missing id must fail with CheckpointNotFoundError');
    },
  },
  {
    name: 'delete is a dry run unless applied, then removes the row',
    async run({ store, make }) {
      const cp = await make();
      const dry = await store.delete(cp.id, { namespace: 'app' });
      ensureEqual([dry.dryRun, dry.deleted], [true, []], 'delete without apply must be a dry run that deletes nothing');
      ensureEqual((await store.get(cp.id, { namespace: 'app' })).id, cp.id, 'a dry-run delete must leave the row readable');
      const done = await store.delete(cp.id, { namespace: 'app', apply: true });
      ensureEqual(done.deleted, [cp.id], 'an applied delete must report the deleted id');
      ensureEqual(done.checkpoint?.payloadJson, cp.payloadJson, 'an applied delete must return the deleted checkpoint');
      await rejectsWith(store.get(cp.id, { namespace: 'app' }), isCheckpointNotFoundError, 'a deleted row must not be found by get');
      await rejectsWith(store.delete(cp.id, { namespace: 'app', apply: true }), isCheckpointNotFoundError, 'deleting a deleted row must fail with CheckpointNotFoundError');
    },
  },
  {
    name: 'payload keys such as __proto__ are stored as data',
    async run({ store, make }) {
      const cp = await make({ payloadJson: '{"__proto__":{"polluted":true},"constructor":1}' });
      const got = await store.get(cp.id, { namespace: 'app' });
      ensureEqual(got.payloadJson, '{"__proto__":{"polluted":true},"constructor":1}', 'a __proto__ key must be stored as text like any key');
      ensureEqual(({} as Record<string, unknown>).polluted, undefined, 'reading a __proto__ key must not pollute Object.prototype');
      ensure(Object.prototype.hasOwnProperty.call(got.payload, '__proto__'), 'a __proto__ key must come back as an own property');
    },
  },
  {
    name: 'unicode text survives in every text column',
    async run({ store, make }) {
      const cp = await make({ sessionId: 'sess \u2028 ü 😀', name: 'naïve 😀', payload: { s: 'Grüße 日本 😀 \u0000' } });
      const got = await store.get(cp.id, { namespace: 'app' });
      ensureEqual(
        [got.sessionId, got.name, got.payloadJson],
        ['sess \u2028 ü 😀', 'naïve 😀', '{"s":"Grüße 日本 😀 \\u0000"}'],
        'non-ASCII text (U+2028, umlauts, CJK, astral emoji) must survive in every text column',
      );
    },
  },
];

/** A row as the store would insert it (prepared: canonical payload, its hash), with the case's defaults. */
function newRow(store: CaseContext['store'], input: Partial<CreateCheckpointInput>): NewCheckpointRow {
  const { payloadBytes: _, ...row } = store.prepare({ namespace: 'app', sessionId: 's-1', createdAt: at(0), payload: { n: 1 }, ...input });
  return row;
}
