import assert from 'node:assert/strict';
import {
  Checkpointer,
  CheckpointStore,
  isCheckpointConflictError,
  isCheckpointIntegrityError,
  isCheckpointNotFoundError,
  type CheckpointError,
} from '@session-checkpoint/core';
import { at, type CaseContext } from './context.js';

/** One named case of the contract. */
export interface ConformanceCase {
  name: string;
  /** Runs only when the adapter declares this capability. */
  requires?: 'persistent' | 'multiProcess';
  run(ctx: CaseContext): Promise<void>;
}

/** Asserts that `promise` rejects with an error accepted by `guard`, and returns it. */
export async function rejectsWith<T extends CheckpointError>(promise: Promise<unknown>, guard: (e: unknown) => e is T, what: string): Promise<T> {
  try {
    await promise;
  } catch (error) {
    assert.ok(guard(error), `expected ${what}, got ${String(error)}`);
    return error;
  }
  assert.fail(`expected ${what}, but the call succeeded`);
}

const ids = (rows: readonly { id: number }[]) => rows.map((r) => r.id);

/** The contract, by group. Group names are what `only`/`skip` options refer to. */
export const CONFORMANCE_GROUPS: Record<string, ConformanceCase[]> = {
  crud: [
    {
      name: 'create then get returns the same fields and exact payload text',
      async run({ store, make }) {
        const created = await make({ payloadJson: '{"b":1.0,"a":12345678901234567890}', name: 'first', kind: 'snap', sourceRef: 'ref:1' });
        const got = await store.get(created.id, { namespace: 'app' });
        assert.equal(got.payloadJson, '{"a":12345678901234567890,"b":1.0}');
        assert.deepEqual(
          { ...got, payload: undefined },
          { ...created, payload: undefined },
        );
        assert.equal(got.sessionId, 's-1');
        assert.equal(got.name, 'first');
        assert.equal(got.kind, 'snap');
        assert.equal(got.sourceRef, 'ref:1');
        assert.equal(got.createdAt, at(0));
      },
    },
    {
      name: 'get of a missing id is not found',
      async run({ store }) {
        await rejectsWith(store.get(12345, { namespace: 'app' }), isCheckpointNotFoundError, 'CheckpointNotFoundError');
      },
    },
    {
      name: 'delete is a dry run unless applied, then removes the row',
      async run({ store, make }) {
        const cp = await make();
        const dry = await store.delete(cp.id, { namespace: 'app' });
        assert.equal(dry.dryRun, true);
        assert.deepEqual(dry.deleted, []);
        assert.equal((await store.get(cp.id, { namespace: 'app' })).id, cp.id);
        const done = await store.delete(cp.id, { namespace: 'app', apply: true });
        assert.deepEqual(done.deleted, [cp.id]);
        assert.equal(done.checkpoint?.payloadJson, cp.payloadJson);
        await rejectsWith(store.get(cp.id, { namespace: 'app' }), isCheckpointNotFoundError, 'CheckpointNotFoundError');
        await rejectsWith(store.delete(cp.id, { namespace: 'app', apply: true }), isCheckpointNotFoundError, 'CheckpointNotFoundError');
      },
    },
    {
      name: 'payload keys such as __proto__ are stored as data',
      async run({ store, make }) {
        const cp = await make({ payloadJson: '{"__proto__":{"polluted":true},"constructor":1}' });
        const got = await store.get(cp.id, { namespace: 'app' });
        assert.equal(got.payloadJson, '{"__proto__":{"polluted":true},"constructor":1}');
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
        assert.ok(Object.prototype.hasOwnProperty.call(got.payload, '__proto__'));
      },
    },
    {
      name: 'unicode text survives in every text column',
      async run({ store, make }) {
        const cp = await make({ sessionId: 'sess \u2028 ü 😀', name: 'naïve 😀', payload: { s: 'Grüße 日本 😀 \u0000' } });
        const got = await store.get(cp.id, { namespace: 'app' });
        assert.equal(got.sessionId, 'sess \u2028 ü 😀');
        assert.equal(got.name, 'naïve 😀');
        assert.equal(got.payloadJson, '{"s":"Grüße 日本 😀 \\u0000"}');
      },
    },
  ],

  namespaces: [
    {
      name: 'an id of another namespace is not found for get and delete',
      async run({ store, make }) {
        const cp = await make({ namespace: 'app-a' });
        await rejectsWith(store.get(cp.id, { namespace: 'app-b' }), isCheckpointNotFoundError, 'CheckpointNotFoundError');
        await rejectsWith(store.delete(cp.id, { namespace: 'app-b', apply: true }), isCheckpointNotFoundError, 'CheckpointNotFoundError');
        assert.equal((await store.get(cp.id, { namespace: 'app-a' })).id, cp.id);
      },
    },
    {
      name: 'list, latest and sessions see one namespace only',
      async run({ store, make }) {
        await make({ namespace: 'app-a', sessionId: 'shared' });
        await make({ namespace: 'app-b', sessionId: 'shared' });
        assert.equal((await store.list({ namespace: 'app-a' })).length, 1);
        assert.equal((await store.list({ namespace: 'app-b' })).length, 1);
        assert.equal((await store.list({ namespace: 'app-c' })).length, 0);
        assert.equal((await store.latest('shared', { namespace: 'app-a' }))?.namespace, 'app-a');
        assert.deepEqual((await store.sessions({ namespace: 'app-b' })).map((s) => s.count), [1]);
      },
    },
  ],

  ordering: [
    {
      name: 'list orders by created_at desc, then id desc, and pages with limit/offset',
      async run({ store, make }) {
        const a = await make({ createdAt: at(1) });
        const b = await make({ createdAt: at(3) });
        const c = await make({ createdAt: at(1) });
        const d = await make({ createdAt: at(2), sessionId: 's-2' });
        assert.deepEqual(ids(await store.list({ namespace: 'app' })), [b.id, d.id, c.id, a.id]);
        assert.deepEqual(ids(await store.list({ namespace: 'app', limit: 2, offset: 1 })), [d.id, c.id]);
        assert.deepEqual(ids(await store.list({ namespace: 'app', offset: 100 })), []);
        assert.deepEqual(ids(await store.list({ namespace: 'app', sessionId: 's-1' })), [b.id, c.id, a.id]);
        assert.deepEqual(ids(await store.history('s-1', { namespace: 'app', limit: 1 })), [b.id]);
        assert.equal((await store.latest('s-1', { namespace: 'app' }))?.id, b.id);
        assert.equal(await store.latest('nobody', { namespace: 'app' }), undefined);
      },
    },
    {
      name: 'timestamps with offsets are normalised to UTC before ordering',
      async run({ store, make }) {
        const early = await make({ createdAt: '2026-08-08T09:30:00+02:00' });
        const late = await make({ createdAt: '2026-08-08T08:00:00Z' });
        assert.equal(early.createdAt, '2026-08-08T07:30:00Z');
        assert.deepEqual(ids(await store.list({ namespace: 'app' })), [late.id, early.id]);
      },
    },
    {
      name: 'sessions lists each session with its count and newest row, most recent first',
      async run({ store, make }) {
        await make({ sessionId: 'old', createdAt: at(1) });
        const newest = await make({ sessionId: 'new', createdAt: at(5) });
        await make({ sessionId: 'old', createdAt: at(2) });
        const sessions = await store.sessions({ namespace: 'app' });
        assert.deepEqual(sessions.map((s) => [s.sessionId, s.count]), [['new', 1], ['old', 2]]);
        assert.equal(sessions[0]?.latestId, newest.id);
        assert.equal(sessions[1]?.latestCreatedAt, at(2));
      },
    },
    {
      name: 'scanRows pages by id ascending, optionally within a namespace',
      async run({ adapter, make }) {
        const a = await make({ namespace: 'x' });
        const b = await make({ namespace: 'y' });
        const c = await make({ namespace: 'x' });
        assert.deepEqual(ids(await adapter.scanRows({ afterId: 0, limit: 10 })), [a.id, b.id, c.id]);
        assert.deepEqual(ids(await adapter.scanRows({ afterId: a.id, limit: 1 })), [b.id]);
        assert.deepEqual(ids(await adapter.scanRows({ namespace: 'x', afterId: 0, limit: 10 })), [a.id, c.id]);
      },
    },
  ],

  sourceRef: [
    {
      name: 'source_ref is unique per namespace; null never collides',
      async run({ store, make }) {
        await make({ sourceRef: 'legacy:1' });
        const error = await rejectsWith(make({ sourceRef: 'legacy:1' }), isCheckpointConflictError, 'CheckpointConflictError');
        assert.equal(error.message, "source_ref already exists in namespace 'app'");
        await make({ namespace: 'other', sourceRef: 'legacy:1' });
        await make({ sourceRef: null });
        await make({ sourceRef: null });
        assert.equal((await store.list({ namespace: 'app' })).length, 3);
        assert.equal((await store.findBySourceRef('other', 'legacy:1'))?.namespace, 'other');
      },
    },
    {
      name: 'listBySourceRefPrefix reads a prefix range of one namespace in code point order',
      async run({ store, make }) {
        for (const ref of ['t/b', 't/a', 't/a/2', 't/a/1', 't/ab', 'u/a', 't/\u00e9', 't/\u{1F600}', 't/\uFFFD']) await make({ sourceRef: ref });
        await make({ namespace: 'other', sourceRef: 't/a' });
        await make({ sourceRef: null });
        const refs = async (q: { prefix: string; after?: string; before?: string; descending?: boolean; limit?: number }) =>
          (await store.listBySourceRefPrefix({ namespace: 'app', limit: 100, ...q })).map((r) => r.sourceRef);
        assert.deepEqual(await refs({ prefix: 't/' }), ['t/a', 't/a/1', 't/a/2', 't/ab', 't/b', 't/\u00e9', 't/\uFFFD', 't/\u{1F600}']);
        assert.deepEqual(await refs({ prefix: 't/a' }), ['t/a', 't/a/1', 't/a/2', 't/ab']);
        assert.deepEqual(await refs({ prefix: 't/', descending: true, limit: 3 }), ['t/\u{1F600}', 't/\uFFFD', 't/\u00e9']);
        assert.deepEqual(await refs({ prefix: 't/', after: 't/a/1', before: 't/b' }), ['t/a/2', 't/ab']);
        assert.deepEqual(await refs({ prefix: 't/', before: 't/a/2', descending: true }), ['t/a/1', 't/a']);
        assert.deepEqual(await refs({ prefix: 'v/' }), []);
      },
    },
  ],

  ids: [
    {
      name: 'ids ascend and are never reused after deleting the highest',
      async run({ store, make }) {
        const a = await make();
        const b = await make();
        assert.ok(b.id > a.id);
        await store.delete(b.id, { namespace: 'app', apply: true });
        const c = await make();
        assert.ok(c.id > b.id, `id ${c.id} reused after deleting ${b.id}`);
      },
    },
    {
      name: 'an explicit id is kept and later ids stay above it; a taken id conflicts',
      async run({ store }) {
        const prepared = store.prepare({ namespace: 'app', sessionId: 's', payload: { a: 1 }, createdAt: at(0) });
        const explicit = await store.insertPrepared({ ...prepared, id: 500 });
        assert.equal(explicit.id, 500);
        const next = await store.create({ namespace: 'app', sessionId: 's', payload: { a: 2 } });
        assert.ok(next.id > 500, `id ${next.id} not above explicit id 500`);
        await rejectsWith(store.insertPrepared({ ...prepared, id: 500 }), isCheckpointConflictError, 'CheckpointConflictError');
        assert.equal((await store.findById(500))?.id, 500);
      },
    },
  ],

  retention: [
    {
      name: 'keepLatest on create keeps the newest N of that session only',
      async run({ store, make }) {
        const other = await make({ sessionId: 'other' });
        const made = [];
        for (let i = 0; i < 5; i++) made.push(await store.create({ namespace: 'app', sessionId: 's-1', payload: { i }, createdAt: at(i) }, { keepLatest: 3 }));
        assert.deepEqual(ids(await store.history('s-1', { namespace: 'app' })), ids(made.slice(2)).reverse());
        assert.equal((await store.get(other.id, { namespace: 'app' })).id, other.id);
      },
    },
    {
      name: 'prune selects by count and/or age, dry run unless applied',
      async run({ store, make }) {
        const s1 = [await make({ createdAt: at(1) }), await make({ createdAt: at(2) }), await make({ createdAt: at(3) })];
        const s2 = [await make({ sessionId: 's-2', createdAt: at(1) })];
        const byCount = await store.prune({ namespace: 'app', keepLatest: 1 });
        assert.equal(byCount.dryRun, true);
        assert.deepEqual(byCount.selected, [s1[0]!.id, s1[1]!.id]);
        assert.equal((await store.list({ namespace: 'app' })).length, 4);
        const byAge = await store.prune({ namespace: 'app', olderThan: at(2) });
        assert.deepEqual(byAge.selected, [s1[0]!.id, s2[0]!.id].sort((x, y) => x - y));
        const both = await store.prune({ namespace: 'app', keepLatest: 1, olderThan: at(2), apply: true });
        assert.deepEqual(both.deleted, [s1[0]!.id]);
        assert.deepEqual(ids(await store.list({ namespace: 'app' })).sort((x, y) => x - y), [s1[1]!.id, s1[2]!.id, s2[0]!.id].sort((x, y) => x - y));
      },
    },
    {
      name: 'deleteSession removes one session of one namespace',
      async run({ store, make }) {
        await make();
        await make();
        const keep = await make({ sessionId: 's-2' });
        const elsewhere = await make({ namespace: 'other' });
        const dry = await store.deleteSession('s-1', { namespace: 'app' });
        assert.equal(dry.selected.length, 2);
        const done = await store.deleteSession('s-1', { namespace: 'app', apply: true });
        assert.equal(done.deleted.length, 2);
        assert.deepEqual(ids(await store.list({ namespace: 'app' })), [keep.id]);
        assert.equal((await store.get(elsewhere.id, { namespace: 'other' })).id, elsewhere.id);
      },
    },
    {
      name: 'Checkpointer keeps maxHistory under concurrent puts',
      async run({ store }) {
        const threads = new Checkpointer(store, { namespace: 'agents', maxHistory: 5 });
        await Promise.all(Array.from({ length: 30 }, (_, i) => threads.put('t-1', { i })));
        await threads.put('t-2', { i: 0 });
        const history = await threads.history('t-1', 100);
        assert.equal(history.length, 5);
        assert.deepEqual(await threads.get('t-1'), history[0]?.state);
        assert.deepEqual((await threads.threads()).sort(), ['t-1', 't-2']);
        assert.equal(await threads.delete('t-1'), 5);
        assert.equal(await threads.get('t-1'), undefined);
      },
    },
  ],

  transactions: [
    {
      name: 'a transaction that throws leaves nothing behind',
      async run({ store, make }) {
        const before = await make();
        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.create({ namespace: 'app', sessionId: 's-1', payload: { in: 'tx' } });
            await tx.delete(before.id, { namespace: 'app', apply: true });
            throw new Error('boom');
          }),
          /boom/,
        );
        assert.deepEqual(ids(await store.list({ namespace: 'app' })), [before.id]);
      },
    },
    {
      name: 'a transaction that resolves commits everything, nested calls included',
      async run({ store }) {
        await store.transaction(async (tx) => {
          await tx.create({ namespace: 'app', sessionId: 's', payload: { a: 1 } });
          await tx.transaction(async (inner) => {
            await inner.create({ namespace: 'app', sessionId: 's', payload: { a: 2 } });
          });
        });
        assert.equal((await store.list({ namespace: 'app' })).length, 2);
      },
    },
    {
      name: 'a conflict inside a transaction rolls back its earlier writes',
      async run({ store, make }) {
        await make({ sourceRef: 'taken' });
        await rejectsWith(
          store.transaction(async (tx) => {
            await tx.create({ namespace: 'app', sessionId: 's', payload: { a: 1 }, sourceRef: 'fresh' });
            await tx.create({ namespace: 'app', sessionId: 's', payload: { a: 2 }, sourceRef: 'taken' });
          }),
          isCheckpointConflictError,
          'CheckpointConflictError',
        );
        assert.equal(await store.findBySourceRef('app', 'fresh'), undefined);
      },
    },
  ],

  concurrency: [
    {
      name: 'concurrent creates all succeed with distinct ids',
      async run({ store }) {
        const made = await Promise.all(
          Array.from({ length: 50 }, (_, i) => store.create({ namespace: 'app', sessionId: `s-${i % 5}`, payload: { i } })),
        );
        assert.equal(new Set(ids(made)).size, 50);
        assert.equal((await store.list({ namespace: 'app', limit: 100 })).length, 50);
      },
    },
  ],

  integrity: [
    {
      name: 'a tampered payload fails closed on get, list, latest and delete, naming the id',
      async run({ store, make, subject }) {
        const good = await make({ createdAt: at(1) });
        const bad = await make({ createdAt: at(2) });
        const elsewhere = await make({ namespace: 'other' });
        await subject.tamper(bad.id, { payloadJson: '{"n":2}' });
        const e1 = await rejectsWith(store.get(bad.id, { namespace: 'app' }), isCheckpointIntegrityError, 'CheckpointIntegrityError');
        assert.deepEqual(e1.ids, [bad.id]);
        assert.match(e1.message, new RegExp(`Checkpoint ${bad.id} `));
        const e2 = await rejectsWith(store.list({ namespace: 'app' }), isCheckpointIntegrityError, 'CheckpointIntegrityError');
        assert.deepEqual(e2.ids, [bad.id]);
        await rejectsWith(store.latest('s-1', { namespace: 'app' }), isCheckpointIntegrityError, 'CheckpointIntegrityError');
        await rejectsWith(store.delete(bad.id, { namespace: 'app', apply: true }), isCheckpointIntegrityError, 'CheckpointIntegrityError');
        assert.equal((await store.get(good.id, { namespace: 'app' })).id, good.id);
        assert.equal((await store.list({ namespace: 'other' }))[0]?.id, elsewhere.id);
      },
    },
    {
      name: 'every kind of tampering is caught and verify reports each bad row',
      async run({ store, make, subject }) {
        const made = [];
        for (let i = 0; i < 7; i++) made.push(await make({ payload: { i } }));
        const [hash, noncanonical, blob, notJson, createdAt, session, fine] = made;
        await subject.tamper(hash!.id, { payloadSha256: 'a'.repeat(64) });
        // Correctly hashed but not canonical: must still fail (the reference does the same).
        const text = '{ "i": 1 }';
        const { sha256Hex } = await import('@session-checkpoint/core');
        await subject.tamper(noncanonical!.id, { payloadJson: text, payloadSha256: sha256Hex(text) });
        await subject.tamper(blob!.id, { payloadJson: new TextEncoder().encode(blob!.payloadJson) });
        await subject.tamper(notJson!.id, { payloadJson: '{"i":', payloadSha256: sha256Hex('{"i":') });
        await subject.tamper(createdAt!.id, { createdAt: '2026-08-08T09:00:00+02:00' });
        await subject.tamper(session!.id, { sessionId: 'bad\u0001id' });
        const report = await store.verify();
        assert.equal(report.checked, 7);
        assert.equal(report.ok, 1);
        assert.deepEqual(report.failures.map((f) => f.id), ids(made.slice(0, 6)));
        const e = await rejectsWith(store.list({ namespace: 'app' }), isCheckpointIntegrityError, 'CheckpointIntegrityError');
        assert.deepEqual([...e.ids].sort((x, y) => x - y), ids(made.slice(0, 6)));
        assert.equal((await store.get(fine!.id, { namespace: 'app' })).id, fine!.id);
        assert.deepEqual((await store.verify({ namespace: 'other' })).checked, 0);
      },
    },
    {
      name: 'delete with force removes a row that fails verification and says so',
      async run({ store, make, subject }) {
        const bad = await make();
        await subject.tamper(bad.id, { payloadSha256: '0'.repeat(64) });
        const dry = await store.delete(bad.id, { namespace: 'app', force: true });
        assert.equal(dry.checkpoint, null);
        assert.match(dry.integrityFailure ?? '', /hash/);
        const done = await store.delete(bad.id, { namespace: 'app', force: true, apply: true });
        assert.deepEqual(done.deleted, [bad.id]);
        assert.equal((await store.verify()).failures.length, 0);
      },
    },
  ],

  persistence: [
    {
      name: 'data survives a second adapter over the same store',
      requires: 'persistent',
      async run({ subject, make }) {
        const cp = await make({ payloadJson: '{"x":1.0}' });
        assert.ok(subject.reopen, 'a persistent subject must provide reopen()');
        const second = await subject.reopen();
        try {
          const again = await new CheckpointStore(second).get(cp.id, { namespace: 'app' });
          assert.equal(again.payloadJson, '{"x":1.0}');
        } finally {
          await second.close();
        }
      },
    },
  ],
};
