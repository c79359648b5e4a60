import { describe, expect, it } from 'vitest';
import {
  canonicalPayloadFromJson,
  CheckpointConflictError,
  CheckpointIntegrityError,
  CheckpointStore,
  CheckpointValidationError,
  MemoryAdapter,
  type CheckpointAdapter,
  type NewCheckpointRow,
} from '@session-checkpoint/core';
import type { BundleProgress } from '../progress.js';
import { exportBundle } from '../export/export-bundle.js';
import { serializeBundle } from '../export/serialize-bundle.js';
import { importBundle } from './import-bundle.js';
import { parseBundle } from './parse-bundle.js';

interface ItemSpec {
  id: number;
  namespace?: string;
  payload?: string;
  sourceRef?: string | null;
}

/** A bundle text with payloads given as exact JSON text. */
function bundleText(items: ItemSpec[], extraTop = ''): string {
  const rendered = items.map((it) => {
    const payload = it.payload ?? `{"id": ${it.id}}`;
    return `{"id": ${it.id}, "namespace": ${JSON.stringify(it.namespace ?? 'app')}, "session_id": "s", "kind": "manual", "name": "n${it.id}",
      "payload": ${payload}, "payload_sha256": "${canonicalPayloadFromJson(payload).sha256}", "created_at": "2026-08-08T09:30:00+02:00",
      "source_ref": ${it.sourceRef === undefined ? `"ref:${it.id}"` : JSON.stringify(it.sourceRef)}}`;
  });
  return `{${extraTop}"schema": "ellmos.session-checkpoint-export.v1", "store_schema_version": 1, "checkpoints": [${rendered.join(',')}]}`;
}

describe('importBundle', () => {
  it('imports __proto__ and constructor keys as plain data and round-trips them', async () => {
    const store = new CheckpointStore(new MemoryAdapter());
    const payload = '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "a": {"__proto__": [1.0]}}';
    const text = bundleText([{ id: 5, payload }], '"__proto__": {"polluted": true}, ');
    expect(await importBundle(store, text, { apply: true })).toEqual({ dryRun: false, inserted: [5], unchanged: [] });
    const cp = await store.get(5, { namespace: 'app' });
    expect(cp.payloadJson).toBe('{"__proto__":{"polluted":true},"a":{"__proto__":[1.0]},"constructor":{"prototype":{"polluted":true}}}');
    expect(Object.keys(cp.payload)).toEqual(['__proto__', 'a', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    const exported = serializeBundle(await exportBundle(store));
    expect(exported).toContain('"__proto__": {\n          "polluted": true\n        }');
    expect((await importBundle(store, exported, { apply: true })).unchanged).toEqual([5]);
  });

  it('keeps original ids, hashes and normalised timestamps; payload lexemes exact', async () => {
    const store = new CheckpointStore(new MemoryAdapter());
    await importBundle(store, bundleText([{ id: 900, payload: '{"b": 12345678901234567890, "a": [1.0, 1E2, -0.0, 1e-7]}' }]), { apply: true });
    const cp = await store.findById(900);
    expect(cp?.payloadJson).toBe('{"a":[1.0,100.0,-0.0,1e-07],"b":12345678901234567890}');
    expect(cp?.createdAt).toBe('2026-08-08T07:30:00Z');
    expect(cp?.sourceRef).toBe('ref:900');
    // Duplicate keys in a payload: the last wins, as with json.loads.
    await importBundle(store, bundleText([{ id: 901, payload: '{"k": 1, "k": 2}' }]), { apply: true });
    expect((await store.findById(901))?.payloadJson).toBe('{"k":2}');
  });

  it('namespace option imports only that namespace, after validating everything', async () => {
    const store = new CheckpointStore(new MemoryAdapter());
    const text = bundleText([{ id: 1, namespace: 'a' }, { id: 2, namespace: 'b' }, { id: 3, namespace: 'a' }]);
    expect(await importBundle(store, text, { namespace: 'a', apply: true })).toEqual({ dryRun: false, inserted: [1, 3], unchanged: [] });
    expect(await store.findById(2)).toBeUndefined();
    expect(await importBundle(store, text, { apply: true })).toEqual({ dryRun: false, inserted: [2], unchanged: [1, 3] });
    // Items of other namespaces are still validated.
    const broken = bundleText([{ id: 1, namespace: 'a' }]).replace(']}', ', {"id": 9}]}');
    await expect(importBundle(store, broken, { namespace: 'a' })).rejects.toThrow(/^Imported checkpoint fields must be exactly/);
    await expect(importBundle(store, text, { namespace: 'not valid' })).rejects.toThrow(CheckpointValidationError);
  });

  it('reports progress for every phase', async () => {
    const store = new CheckpointStore(new MemoryAdapter());
    const events: BundleProgress[] = [];
    await importBundle(store, bundleText([{ id: 1 }, { id: 2 }]), { apply: true, onProgress: (e) => events.push(e) });
    expect(events).toEqual([
      { phase: 'validate', done: 1, total: 2 },
      { phase: 'validate', done: 2, total: 2 },
      { phase: 'preflight', done: 1, total: 2 },
      { phase: 'preflight', done: 2, total: 2 },
      { phase: 'insert', done: 1, total: 2 },
      { phase: 'insert', done: 2, total: 2 },
    ]);
  });

  it('accepts a ParsedBundle and dry runs write nothing', async () => {
    const store = new CheckpointStore(new MemoryAdapter());
    const parsed = parseBundle(bundleText([{ id: 4 }]), store.limits);
    expect(parsed.checkpoints[0]).toMatchObject({ id: 4, namespace: 'app', payloadJson: '{"id":4}', createdAt: '2026-08-08T07:30:00Z' });
    expect(await importBundle(store, parsed)).toEqual({ dryRun: true, inserted: [4], unchanged: [] });
    expect(await store.findById(4)).toBeUndefined();
  });

  it('re-checks the plan inside the transaction: a change after the dry preflight is caught', async () => {
    const store = new CheckpointStore(new MemoryAdapter());
    const text = bundleText([{ id: 1 }, { id: 2 }, { id: 3 }]);
    const intruder = store.prepare({ namespace: 'app', sessionId: 'other', payload: { other: true }, createdAt: '2026-01-01T00:00:00Z' });
    const error = await importBundle(store, text, {
      apply: true,
      onProgress: (e) => {
        // Between the preflight and the transaction another writer takes id 3.
        if (e.phase === 'preflight' && e.done === e.total) void store.insertPrepared({ ...intruder, id: 3 });
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointConflictError);
    expect((error as CheckpointConflictError).message).toBe('Checkpoint id 3 conflicts with existing state');
    expect((error as CheckpointConflictError).ids).toEqual([3]);
    expect(await store.findById(1)).toBeUndefined();
    expect(await store.findById(2)).toBeUndefined();
  });

  it('an insert that still collides rolls everything back with the reference message', async () => {
    const memory = new MemoryAdapter();
    const failingTx = (tx: CheckpointAdapter): CheckpointAdapter =>
      new Proxy(tx, {
        get(target, prop) {
          if (prop === 'insert') {
            return async (row: NewCheckpointRow, options: unknown) => {
              if (row.id === 2) throw new CheckpointConflictError('UNIQUE constraint failed');
              return target.insert(row, options as never);
            };
          }
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    const adapter = new Proxy(memory, {
      get(target, prop) {
        if (prop === 'transaction') {
          return <T>(fn: (tx: CheckpointAdapter) => Promise<T>) => target.transaction((tx) => fn(failingTx(tx)));
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const store = new CheckpointStore(adapter);
    const error = await importBundle(store, bundleText([{ id: 1 }, { id: 2 }, { id: 3 }]), { apply: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointConflictError);
    expect((error as Error).message).toBe('Checkpoint import conflicted with state changed during apply');
    expect((error as CheckpointConflictError).ids).toEqual([2]);
    expect(await store.findById(1)).toBeUndefined();
  });

  it('a damaged existing row in the way fails with an integrity error', async () => {
    const memory = new MemoryAdapter();
    const store = new CheckpointStore(memory);
    const text = bundleText([{ id: 1 }]);
    await importBundle(store, text, { apply: true });
    await memory.tamperForTesting(1, { payloadJson: '{"id":2}' });
    await expect(importBundle(store, text)).rejects.toThrow(CheckpointIntegrityError);
  });
});
