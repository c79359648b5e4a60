/**
 * Bundles of sealed stores (issue 36): a sealed store exports its envelopes and the heads of its
 * sessions; an importer with the keys checks every seal and chain before writing anything, keeps
 * the envelopes under keys it holds and re-seals them only when given the bundle's keys too; a
 * bundle edited in transit is refused with the store unchanged. The Python tool's import rules
 * accept a sealed bundle as they do any other (it sees envelopes).
 */
import { CheckpointStore, Keyring, MemoryAdapter, isCheckpointConflictError, isCheckpointIntegrityError, isCheckpointValidationError, sha256Hex } from '@session-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { exportBundle, importBundle, serializeBundle, SEAL_SECTION_KEY } from './index.js';
import { pythonAcceptsBundle } from './test-support/python-import-rules.js';
import { describeBackends, openTestStore, type TestStore } from './test-support/stores.js';

const at = (second: number) => `2026-08-08T07:00:${String(second).padStart(2, '0')}Z`;
const keysA = Keyring.generate('a');
const keysB = Keyring.generate('b');

/** Everything a store holds, to show a refused import changed nothing. */
async function contents(store: CheckpointStore): Promise<string> {
  const rows = await store.adapter.scanRows({ afterId: 0, limit: 10_000 });
  const meta = store.adapter.listMeta ? await store.adapter.listMeta('') : [];
  return JSON.stringify([rows, [...meta].sort((x, y) => (x.key < y.key ? -1 : 1))]);
}

async function fill(store: CheckpointStore): Promise<void> {
  for (let i = 0; i < 4; i++) await store.create({ namespace: 'app', sessionId: 't-1', payloadJson: `{"i":${i},"n":12345678901234567890,"f":1.0}`, sourceRef: `r${i}`, createdAt: at(i) });
  await store.create({ namespace: 'app', sessionId: 't-2', payload: { secret: 'sealed-bundle-marker' }, createdAt: at(9) });
  await store.create({ namespace: 'other', sessionId: 't-1', payload: { elsewhere: true } });
}

async function clean(store: CheckpointStore): Promise<void> {
  const report = await store.verify();
  expect(report.failures).toEqual([]);
  expect(report.seal?.problems).toEqual([]);
}

describeBackends('sealed bundles', (backend) => {
  const opened: TestStore[] = [];
  const open = async (keys?: Keyring) => {
    const s = await openTestStore(backend, undefined, keys === undefined ? {} : { keys });
    opened.push(s);
    return s.store;
  };
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.cleanup();
  });

  it('a sealed store exports envelopes and heads, which the Python tool accepts; an importer with the keys keeps them and re-imports as unchanged', async () => {
    const source = await open(keysA);
    await fill(source);
    const bundle = await exportBundle(source, { namespace: 'app' });
    const text = serializeBundle(bundle);
    expect(text).not.toContain('sealed-bundle-marker');
    expect(bundle[SEAL_SECTION_KEY]?.heads).toHaveLength(2);
    expect(bundle.checkpoints.every((c) => c.payload.text.startsWith('{"ct":"'))).toBe(true);
    expect(pythonAcceptsBundle(text)).toEqual(bundle.checkpoints.map((c) => c.id));
    const target = await open(keysA);
    expect(await importBundle(target, text)).toEqual({ dryRun: true, inserted: bundle.checkpoints.map((c) => c.id), unchanged: [] });
    expect(await importBundle(target, text, { apply: true })).toMatchObject({ dryRun: false, inserted: bundle.checkpoints.map((c) => c.id) });
    await clean(target);
    const stored = await target.adapter.scanRows({ afterId: 0, limit: 100 });
    expect(stored.map((r) => r.payloadJson)).toEqual(bundle.checkpoints.map((c) => c.payload.text));
    expect((await target.latest('t-1', { namespace: 'app' }))?.payloadJson).toBe('{"f":1.0,"i":3,"n":12345678901234567890}');
    expect(await importBundle(target, text, { apply: true })).toEqual({ dryRun: false, inserted: [], unchanged: bundle.checkpoints.map((c) => c.id) });
    await target.create({ namespace: 'app', sessionId: 't-1', payload: { after: 'import' } });
    await clean(target);
  });

  it('a store with other keys refuses a sealed bundle unless given the bundle\'s keys too, then re-seals it under its own', async () => {
    const source = await open(keysA);
    await fill(source);
    const text = serializeBundle(await exportBundle(source));
    const target = await open(keysB);
    const before = await contents(target);
    await expect(importBundle(target, text, { apply: true })).rejects.toSatisfy((e: unknown) => isCheckpointValidationError(e) && /sealed with key 'a', which this store's keyring does not hold/.test(String(e)));
    expect(await contents(target)).toBe(before);
    const result = await importBundle(target, text, { apply: true, sourceKeys: keysA });
    expect(result.inserted).toHaveLength(6);
    const stored = JSON.stringify(await target.adapter.scanRows({ afterId: 0, limit: 100 }));
    expect(stored).not.toContain('"key":"a"');
    await clean(target);
    const onlyB = new CheckpointStore(target.adapter, { keys: keysB });
    expect((await onlyB.history('t-1', { namespace: 'app' })).map((c) => JSON.parse(c.payloadJson).i)).toEqual([3, 2, 1, 0]);
    expect(await importBundle(target, text, { apply: true, sourceKeys: keysA })).toMatchObject({ inserted: [], unchanged: result.inserted });
  });

  it('a bundle edited in transit is refused, and the store is left unchanged', async () => {
    const source = await open(keysA);
    await fill(source);
    const original = serializeBundle(await exportBundle(source, { namespace: 'app' }));
    const target = await open(keysA);
    const before = await contents(target);
    const bundle = JSON.parse(original) as { checkpoints: { id: number; payload: Record<string, unknown>; payload_sha256: string; session_id: string; name: string }[]; [SEAL_SECTION_KEY]?: { heads: string[] } };
    const rehash = (item: { payload: Record<string, unknown>; payload_sha256: string }) => {
      const keys = Object.keys(item.payload).sort();
      item.payload_sha256 = sha256Hex(JSON.stringify(Object.fromEntries(keys.map((k) => [k, item.payload[k]]))));
    };
    const edits: [string, (b: typeof bundle) => void][] = [
      ['a ciphertext bit, hash recomputed', (b) => {
        const item = b.checkpoints[1]!;
        const ct = String(item.payload.ct);
        item.payload.ct = (ct[4] === 'A' ? 'B' : 'A') + ct.slice(1);
        item.payload.ct = ct.slice(0, 4) + (ct[4] === 'A' ? 'B' : 'A') + ct.slice(5);
        rehash(item);
      }],
      ['a name', (b) => void (b.checkpoints[0]!.name = 'renamed')],
      ['the newest row of a session dropped', (b) => void b.checkpoints.splice(3, 1)],
      ['a middle row dropped', (b) => void b.checkpoints.splice(1, 1)],
      ['two envelopes swapped', (b) => {
        const [x, y] = [b.checkpoints[1]!, b.checkpoints[2]!];
        [x.payload, y.payload] = [y.payload, x.payload];
        [x.payload_sha256, y.payload_sha256] = [y.payload_sha256, x.payload_sha256];
      }],
      ['a row moved to another session', (b) => void (b.checkpoints[4]!.session_id = 't-1')],
      ['a head edited', (b) => {
        const heads = b[SEAL_SECTION_KEY]!.heads;
        heads[0] = heads[0]!.replace(/"count":(\d+)/, (_m, n: string) => `"count":${Number(n) - 1}`);
      }],
      ['a head dropped', (b) => void b[SEAL_SECTION_KEY]!.heads.pop()],
      ['the seal section dropped', (b) => void delete b[SEAL_SECTION_KEY]],
    ];
    for (const [what, edit] of edits) {
      const copy = structuredClone(bundle);
      edit(copy);
      let error: unknown;
      try {
        await importBundle(target, JSON.stringify(copy), { apply: true });
      } catch (e) {
        error = e;
      }
      expect(isCheckpointIntegrityError(error) || isCheckpointValidationError(error), `${what}: ${String(error)}`).toBe(true);
      expect(await contents(target), what).toBe(before);
    }
  });

  it('a plain bundle imports into a sealed store as sealed rows, unless requireSealed; a sealed bundle never imports into a plain store', async () => {
    const plain = await open();
    await fill(plain);
    const plainText = serializeBundle(await exportBundle(plain));
    const sealed = await open(keysA);
    await expect(importBundle(sealed, plainText, { apply: true, requireSealed: true })).rejects.toSatisfy(isCheckpointValidationError);
    expect((await importBundle(sealed, plainText, { apply: true })).inserted).toHaveLength(6);
    await clean(sealed);
    expect(JSON.stringify(await sealed.adapter.scanRows({ afterId: 0, limit: 100 }))).not.toContain('sealed-bundle-marker');
    expect((await importBundle(sealed, plainText, { apply: true })).unchanged).toHaveLength(6);
    const sealedText = serializeBundle(await exportBundle(sealed));
    const other = await open();
    await expect(importBundle(other, sealedText, { apply: true })).rejects.toSatisfy((e: unknown) => isCheckpointValidationError(e) && /import it into a store opened with keys/.test(String(e)));
    const decrypted = serializeBundle(await exportBundle(sealed, { plaintext: true }));
    expect(decrypted).toContain('sealed-bundle-marker');
    expect(decrypted).not.toContain(SEAL_SECTION_KEY);
  });

  it('refuses to take over a session the store holds other sealed rows of', async () => {
    const source = await open(keysA);
    await fill(source);
    const text = serializeBundle(await exportBundle(source, { namespace: 'app' }));
    const target = await open(keysA);
    // Ids the bundle does not take: the session clash is what must be refused.
    const spent = [];
    for (let i = 0; i < 6; i++) spent.push((await target.create({ namespace: 'scratch', sessionId: 's', payload: { i } })).id);
    await target.deleteSession('s', { namespace: 'scratch', apply: true });
    await target.create({ namespace: 'app', sessionId: 't-2', payload: { mine: true } });
    const before = await contents(target);
    await expect(importBundle(target, text, { apply: true })).rejects.toSatisfy((e: unknown) => isCheckpointConflictError(e) && /holds sealed rows the bundle does not/.test(String(e)));
    expect(await contents(target)).toBe(before);
  });
});

describe('an export of a sealed store under concurrent writes', () => {
  it('an export a writer overtook is read again; one overtaken every time fails with CheckpointConflictError', async () => {
    const store = new CheckpointStore(new MemoryAdapter(), { keys: keysA });
    await store.create({ namespace: 'app', sessionId: 's', payload: { n: 0 } });
    const heads = store.sealHeads.bind(store);
    let calls = 0;
    let overtake = 1;
    // A writer slips a row in after the export read the heads, `overtake` times.
    store.sealHeads = async (options) => {
      const read = await heads(options);
      if (calls++ % 2 === 0 && overtake-- > 0) await store.create({ namespace: 'app', sessionId: 's', payload: { n: calls } });
      return read;
    };
    const bundle = await exportBundle(store, { namespace: 'app' });
    expect(bundle.checkpoints).toHaveLength(2);
    expect(calls).toBe(4);
    const target = new CheckpointStore(new MemoryAdapter(), { keys: keysA });
    await importBundle(target, serializeBundle(bundle), { apply: true });
    await clean(target);
    overtake = 99;
    await expect(exportBundle(store, { namespace: 'app' })).rejects.toSatisfy((e: unknown) => isCheckpointConflictError(e) && /changed while they were exported/.test(String(e)));
  });

  it('reads the heads before and after the rows (again when a writer overtook it), so the bundle always imports', async () => {
    const adapter = new MemoryAdapter();
    const store = new CheckpointStore(adapter, { keys: keysA });
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) writes.push(store.create({ namespace: 'app', sessionId: `s-${i % 3}`, payload: { i } }));
    const exports = [exportBundle(store), exportBundle(store)];
    await Promise.all(writes);
    for (const bundle of await Promise.all(exports)) {
      const target = new CheckpointStore(new MemoryAdapter(), { keys: keysA });
      await importBundle(target, serializeBundle(bundle), { apply: true });
      await clean(target);
    }
  });
});
