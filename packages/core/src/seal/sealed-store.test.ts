/**
 * A sealed store over the in-memory adapter: what core promises on its own. The conformance kit's
 * `sealed` group proves the adapter-independent part on every adapter (memory, SQLite, PostgreSQL).
 */
import { describe, expect, it } from 'vitest';
import { checkStoredPayload } from '../canonical/payload.js';
import { isCheckpointIntegrityError, isCheckpointValidationError, type CheckpointIntegrityError } from '../errors.js';
import { MemoryAdapter } from '../memory/memory-adapter.js';
import { CheckpointStore } from '../store/checkpoint-store.js';
import { Checkpointer } from '../thread/checkpointer.js';
import type { CheckpointRow } from '../types.js';
import { SESSION_HEAD_PREFIX, STORE_HEAD_KEY, sessionHeadKey } from './heads.js';
import { Keyring, secretsOf } from './keyring.js';

const at = (second: number) => `2026-08-08T07:00:${String(second).padStart(2, '0')}Z`;
const key1 = new Keyring([{ id: 'k1', secret: new Uint8Array(32).fill(1) }]);

function sealed(options: { keys?: Keyring; allowPlaintext?: boolean; compress?: boolean } = {}) {
  const adapter = new MemoryAdapter();
  return { adapter, store: new CheckpointStore(adapter, { keys: key1, ...options }) };
}

async function integrity(promise: Promise<unknown>): Promise<CheckpointIntegrityError> {
  try {
    await promise;
  } catch (error) {
    if (isCheckpointIntegrityError(error)) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

const rawRows = async (adapter: MemoryAdapter) => adapter.scanRows({ afterId: 0, limit: 1000 });

describe('a store without keys', () => {
  it('writes exactly what it always wrote, and no metadata', async () => {
    const adapter = new MemoryAdapter();
    const store = new CheckpointStore(adapter);
    const cp = await store.create({ namespace: 'app', sessionId: 's', payloadJson: '{"b":1,"a":1.0}', createdAt: at(1) });
    await new Checkpointer(store, { namespace: 'app', maxHistory: 1 }).put('t', { n: 1 });
    await store.delete(cp.id, { namespace: 'app', apply: true });
    expect(await adapter.listMeta('')).toEqual([]);
    expect((await rawRows(adapter))[0]).toMatchObject({ kind: 'thread', payloadJson: '{"n":1}' });
    expect(store.keyIds).toBeUndefined();
    expect(await store.isSealed()).toBe(false);
    expect(() => new CheckpointStore(adapter, { allowPlaintext: true })).toThrow(/apply to a store opened with keys/);
  });
});

describe('a sealed store', () => {
  it('returns the exact payload text, stores only a canonical envelope, and a hash the Python tool accepts', async () => {
    const { adapter, store } = sealed();
    const payloadJson = '{"a":1.0,"big":12345678901234567890,"secret":"hunter2 '.concat('x'.repeat(400), '"}');
    const cp = await store.create({ namespace: 'app', sessionId: 's', payloadJson, createdAt: at(1) });
    expect(cp.payloadJson).toBe(payloadJson);
    const again = await store.get(cp.id, { namespace: 'app' });
    expect(again.payloadJson).toBe(payloadJson);
    expect(again.payloadSha256).toBe(cp.payloadSha256);
    const [raw] = await rawRows(adapter);
    expect(raw?.payloadJson).toMatch(/^\{"ct":"[A-Za-z0-9_-]+","iv":"[A-Za-z0-9_-]{16}","key":"k1","link":"[A-Za-z0-9_-]{16}","prev":null,"seal":"[A-Za-z0-9_-]{22}","sealed":1,"zip":"deflate"\}$/);
    expect(raw?.payloadJson).not.toContain('hunter2');
    expect(checkStoredPayload(raw?.payloadJson as string, raw?.payloadSha256 as string)).toBeUndefined();
    expect(store.keyIds).toEqual({ activeId: 'k1', ids: ['k1'] });
    expect(await new CheckpointStore(adapter).isSealed()).toBe(true);
  });

  it('compresses only when asked and when it pays', async () => {
    const { adapter, store } = sealed({ compress: false });
    await store.create({ sessionId: 's', payload: { text: 'x'.repeat(1000) } });
    const [raw] = await rawRows(adapter);
    expect(raw?.payloadJson).not.toContain('"zip"');
    expect((raw?.payloadJson.length ?? 0) > 1300).toBe(true);
  });

  it('keeps chains and heads valid through retention, prune, deletes at any place, deleteIds and deleteSession', async () => {
    const { adapter, store } = sealed();
    const threads = new Checkpointer(store, { namespace: 'app', maxHistory: 4 });
    for (let i = 0; i < 10; i++) await threads.put('t', { i });
    expect((await threads.history('t')).map((e) => e.state.i)).toEqual([9, 8, 7, 6]);
    const made = [];
    for (let i = 0; i < 8; i++) made.push(await store.create({ namespace: 'app', sessionId: 's', payload: { i }, createdAt: at(i) }));
    const ok = async () => {
      const report = await store.verify();
      expect(report.failures).toEqual([]);
      expect(report.seal?.problems).toEqual([]);
    };
    await ok();
    await store.delete(made[3]!.id, { namespace: 'app', apply: true }); // inside the chain: a bridge
    await ok();
    await store.delete(made[7]!.id, { namespace: 'app', apply: true }); // the newest
    expect((await store.latest('s', { namespace: 'app' }))?.id).toBe(made[6]!.id);
    await ok();
    await store.deleteIds([made[0]!.id, made[5]!.id], { namespace: 'app' }); // the oldest, and inside
    await ok();
    await store.prune({ namespace: 'app', sessionId: 's', olderThan: at(3), apply: true });
    await ok();
    expect((await store.history('s', { namespace: 'app' })).map((c) => c.id)).toEqual([made[6]!.id, made[4]!.id]);
    await store.create({ namespace: 'app', sessionId: 's', payload: { i: 99 }, createdAt: at(2) }); // older than the top: not the newest
    expect((await store.latest('s', { namespace: 'app' }))?.id).toBe(made[6]!.id);
    await ok();
    await store.deleteSession('s', { namespace: 'app', apply: true });
    await threads.delete('t');
    await ok();
    expect((await adapter.listMeta(SESSION_HEAD_PREFIX)).length).toBe(0);
  });

  it('a failed transaction leaves rows and heads as they were', async () => {
    const { adapter, store } = sealed();
    await store.create({ sessionId: 's', payload: { n: 1 } });
    const before = await adapter.listMeta('');
    await expect(
      store.transaction(async (tx) => {
        await tx.create({ sessionId: 's', payload: { n: 2 } });
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await adapter.listMeta('')).toEqual(before);
    await store.create({ sessionId: 's', payload: { n: 3 } });
    expect((await store.verify()).seal?.problems).toEqual([]);
  });

  it('insertPreparedIfPresent checks required rows by their plaintext hash', async () => {
    const { store } = sealed();
    const parent = await store.create({ namespace: 'app', sessionId: 's', payload: { p: 1 }, sourceRef: 'parent' });
    const child = store.prepare({ namespace: 'app', sessionId: 's', payload: { c: 1 }, sourceRef: 'child' });
    expect(await store.insertPreparedIfPresent(child, { present: [{ sourceRef: 'parent', payloadSha256: 'f'.repeat(64) }] })).toBeUndefined();
    expect(await store.insertPreparedIfPresent(child, { present: [{ sourceRef: 'missing' }] })).toBeUndefined();
    const made = await store.insertPreparedIfPresent(child, { present: [{ sourceRef: 'parent', payloadSha256: parent.payloadSha256 }] });
    expect(made?.payloadJson).toBe('{"c":1}');
    expect(await store.insertPreparedIfPresent(child, { present: [] })).toBeUndefined(); // sourceRef taken
    expect((await store.verify()).seal?.problems).toEqual([]);
  });

  it('sealHead changes with every write; checkSealHead tells older, newer and another copy apart', async () => {
    const { adapter, store } = sealed();
    expect(await store.sealHead()).toMatch(/^sc-head-v1:0:[0-9a-f]{32}$/);
    await store.create({ sessionId: 's', payload: { n: 1 } });
    const first = await store.sealHead();
    await store.checkSealHead(first);
    const [oldHead] = await adapter.readMeta([STORE_HEAD_KEY]);
    await store.create({ sessionId: 's', payload: { n: 2 } });
    const second = await store.sealHead();
    expect(second).toMatch(/^sc-head-v1:2:/);
    expect((await integrity(store.checkSealHead(first))).message).toMatch(/after the expected write 1: the store changed/);
    await adapter.writeMeta([{ key: STORE_HEAD_KEY, value: oldHead!.value }]);
    expect((await integrity(store.checkSealHead(second))).message).toMatch(/before the expected write 2: the store was rolled back or replaced by an older copy/);
    expect((await integrity(store.verify({ expectHead: second }))).message).toMatch(/rolled back/);
    const other = `sc-head-v1:1:${'0'.repeat(32)}`;
    expect((await integrity(store.checkSealHead(other))).message).toMatch(/like the expected head, but differs/);
    await expect(store.checkSealHead('nonsense')).rejects.toSatisfy(isCheckpointValidationError);
    await expect(new CheckpointStore(new MemoryAdapter()).sealHead()).rejects.toSatisfy(isCheckpointValidationError);
  });

  it('verify finds one session restored from an older copy together with its head', async () => {
    const { adapter, store } = sealed();
    for (let i = 0; i < 3; i++) await store.create({ namespace: 'app', sessionId: 'victim', payload: { i }, createdAt: at(i) });
    // The attacker's backup of the victim's rows and head.
    const backupRows = (await rawRows(adapter)).filter((r) => r.sessionId === 'victim');
    const headKey = sessionHeadKey('app', 'victim');
    const [backupHead] = await adapter.readMeta([headKey]);
    for (let i = 3; i < 6; i++) await store.create({ namespace: 'app', sessionId: 'victim', payload: { i }, createdAt: at(i) });
    await store.create({ namespace: 'app', sessionId: 'other', payload: { n: 1 } });
    // Restore: the victim's rows and head as they were.
    for (const row of (await rawRows(adapter)).filter((r) => r.sessionId === 'victim')) await adapter.deleteRow(row.id, 'app');
    for (const row of backupRows) await adapter.insert(row);
    await adapter.writeMeta([{ key: headKey, value: backupHead!.value }]);
    // The session is consistent with its own head; only the store head knows better.
    expect((await store.latest('victim', { namespace: 'app' }))?.payload).toEqual({ i: 2 });
    const report = await store.verify();
    expect(report.failures).toEqual([]);
    expect(report.seal?.problems.map((p) => p.reason)).toEqual([expect.stringMatching(/store head does not match the set of session heads/)]);
  });

  it('refuses a plaintext row unless allowPlaintext, and rekey seals plaintext rows into their chains', async () => {
    const adapter = new MemoryAdapter();
    const plain = new CheckpointStore(adapter);
    const old = [];
    for (let i = 0; i < 3; i++) old.push(await plain.create({ namespace: 'app', sessionId: 's', payload: { old: i }, createdAt: at(i) }));
    const strict = new CheckpointStore(adapter, { keys: key1 });
    expect((await integrity(strict.get(old[0]!.id, { namespace: 'app' }))).message).toMatch(/plaintext row in a store that requires encryption/);
    const migrating = new CheckpointStore(adapter, { keys: key1, allowPlaintext: true });
    expect((await migrating.get(old[0]!.id, { namespace: 'app' })).payload).toEqual({ old: 0 });
    await migrating.create({ namespace: 'app', sessionId: 's', payload: { fresh: 1 }, createdAt: at(10) });
    const dry = await migrating.rekey();
    expect(dry).toMatchObject({ dryRun: true, activeKey: 'k1', current: 1, sealedPlaintext: 3 });
    expect(await migrating.rekey({ apply: true })).toMatchObject({ dryRun: false, sealedPlaintext: 3 });
    const report = await strict.verify();
    expect(report.failures).toEqual([]);
    expect(report.seal).toMatchObject({ sealed: 4, plaintext: 0, problems: [] });
    expect((await strict.history('s', { namespace: 'app' })).map((c) => c.payload)).toEqual([{ fresh: 1 }, { old: 2 }, { old: 1 }, { old: 0 }]);
    expect((await migrating.rekey()).sealedPlaintext).toBe(0);
  });

  it('rekey moves every row and head to the new key; afterwards the old key can go', async () => {
    const adapter = new MemoryAdapter();
    const oldKeys = Keyring.generate('old');
    const newKeys = Keyring.generate('new');
    const before = new CheckpointStore(adapter, { keys: oldKeys });
    for (let i = 0; i < 5; i++) await before.create({ namespace: 'app', sessionId: `s${i % 2}`, payload: { i } });
    const rotating = new CheckpointStore(adapter, { keys: oldKeys.with(newKeys) });
    await rotating.create({ namespace: 'app', sessionId: 's0', payload: { i: 5 } }); // a writer already on the new key
    expect(await rotating.rekey()).toMatchObject({ dryRun: true, current: 1, resealed: { old: 5 }, heads: 1 });
    const progress: number[] = [];
    await rotating.rekey({ apply: true, batchSize: 2, onProgress: (p) => progress.push(p.done) });
    expect(progress).toEqual([2, 4, 5]);
    const after = new CheckpointStore(adapter, { keys: newKeys });
    const report = await after.verify();
    expect(report.failures).toEqual([]);
    expect(report.seal?.problems).toEqual([]);
    expect(await rotating.rekey()).toMatchObject({ current: 6, resealed: {}, heads: 0 });
    const text = JSON.stringify([await rawRows(adapter), await adapter.listMeta('')]);
    expect(text).not.toContain('"key":"old"');
    expect((await integrity(before.get(1, { namespace: 'app' }))).message).toMatch(/key 'new', which the keyring does not hold/);
  });

  it('binds each row to its own id: two rows alike in every column swapped fail on get', async () => {
    const { adapter, store } = sealed();
    const same = { namespace: 'app', sessionId: 's', name: 'same', createdAt: at(1) };
    const a = await store.create({ ...same, payload: { n: 'a' } });
    const b = await store.create({ ...same, payload: { n: 'b' } });
    const [rowA, rowB] = [(await adapter.getRow(a.id, 'app'))!, (await adapter.getRow(b.id, 'app'))!];
    await adapter.tamperForTesting(a.id, { payloadJson: rowB.payloadJson, payloadSha256: rowB.payloadSha256 });
    await adapter.tamperForTesting(b.id, { payloadJson: rowA.payloadJson, payloadSha256: rowA.payloadSha256 });
    expect((await integrity(store.get(a.id, { namespace: 'app' }))).message).toMatch(/seal does not verify/);
    expect((await integrity(store.get(b.id, { namespace: 'app' }))).message).toMatch(/seal does not verify/);
  });

  it('a wrong key is named by id, never shown', async () => {
    const { adapter, store } = sealed();
    const cp = await store.create({ sessionId: 's', payload: { n: 1 } });
    const impostor = new Keyring([{ id: 'k1', secret: new Uint8Array(32).fill(2) }]);
    const error = await integrity(new CheckpointStore(adapter, { keys: impostor }).get(cp.id));
    expect(error.message).toMatch(/seal does not verify under key 'k1'/);
    const secret = Buffer.from(secretsOf(impostor).get('k1') as Uint8Array);
    for (const form of ['hex', 'base64', 'base64url'] as const) expect(error.message).not.toContain(secret.toString(form));
  });

  it('a row edited in any column, or moved, fails on read; a page names every bad row', async () => {
    const { adapter, store } = sealed();
    const rows: number[] = [];
    for (let i = 0; i < 9; i++) rows.push((await store.create({ namespace: 'app', sessionId: 's', payload: { i }, sourceRef: `r${i}`, createdAt: at(i) })).id);
    const other = await store.create({ namespace: 'app', sessionId: 'other', payload: { x: 1 } });
    const patches: Record<string, unknown>[] = [
      { kind: 'edited' },
      { name: 'edited' },
      { createdAt: at(59) },
      { sourceRef: 'edited' },
      { sessionId: 'other' },
      { namespace: 'elsewhere' },
      { payloadSha256: 'a'.repeat(64) },
    ];
    for (const [i, patch] of patches.entries()) await adapter.tamperForTesting(rows[i] as number, patch);
    // Another row's envelope copied over row 8, hash and all.
    const donor = (await adapter.getRow(other.id, 'app')) as CheckpointRow;
    await adapter.tamperForTesting(rows[7] as number, { payloadJson: donor.payloadJson, payloadSha256: donor.payloadSha256 });
    const error = await integrity(store.list({ namespace: 'app', limit: 100 }));
    const expected = rows.slice(0, 8).filter((_, i) => i !== 5);
    expect([...error.ids].sort((a, b) => a - b)).toEqual(expected);
    expect((await integrity(store.get(rows[7] as number, { namespace: 'app' }))).message).toMatch(/seal does not verify/);
    expect((await store.get(rows[8] as number, { namespace: 'app' })).payload).toEqual({ i: 8 });
  });
});
