/**
 * Interop with the Python reference: its bundles import into every backend and export again
 * unchanged (field for field, payload text for payload text), and every bundle we write passes an
 * independent model of the reference's import rules.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJsonTree, type JsonNode } from '@session-checkpoint/core/toolkit';
import { exportBundle } from './export/export-bundle.js';
import { serializeBundle } from './export/serialize-bundle.js';
import { writeBundleFile } from './export/write-bundle-file.js';
import { importBundle } from './import/import-bundle.js';
import { PY_EXPORTS, readFixtureText } from '@session-checkpoint/fixtures';
import { pythonAcceptsBundle } from './test-support/python-import-rules.js';
import { describeBackends, openTestStore, tempDir, type TestStore } from './test-support/stores.js';

/** Items of a bundle text as field -> exact source text (payload text included), via spans. */
function itemsBySource(text: string): Array<Record<string, string>> {
  const tree = parseJsonTree(text);
  if (tree.kind !== 'object') throw new Error('object expected');
  const items = tree.entries.find(([k]) => k === 'checkpoints')?.[1] as Extract<JsonNode, { kind: 'array' }>;
  return items.items.map((item) => {
    if (item.kind !== 'object') throw new Error('object expected');
    return Object.fromEntries(item.entries.map(([k, v]) => [k, text.slice(v.start, v.end)]));
  });
}

describe('Python fixtures pass the independent model of the reference import rules', () => {
  it.each(PY_EXPORTS)('%s', (name) => {
    expect(pythonAcceptsBundle(readFixtureText(name)).length).toBeGreaterThan(0);
  });
});

describeBackends('round trip of the Python bundles', (backend) => {
  let opened: TestStore[] = [];
  afterEach(async () => {
    for (const s of opened) await s.cleanup();
    opened = [];
  });

  it.each(PY_EXPORTS)('%s imports and exports back identically', async (name) => {
    const s = await openTestStore(backend);
    opened.push(s);
    const input = readFixtureText(name);
    const result = await importBundle(s.store, input, { apply: true });
    expect(result.unchanged).toEqual([]);
    const inputBundle = JSON.parse(input) as { namespace: string | null; exported_at: string };
    const exported = await exportBundle(s.store, {
      ...(inputBundle.namespace === null ? {} : { namespace: inputBundle.namespace }),
      now: () => new Date(inputBundle.exported_at),
    });
    const text = serializeBundle(exported);
    // Field for field and payload text for payload text: the whole file is byte-identical.
    expect(itemsBySource(text)).toEqual(itemsBySource(input));
    expect(text).toBe(input);
    expect(pythonAcceptsBundle(text)).toEqual(result.inserted);
    // And re-import is a no-op.
    expect(await importBundle(s.store, text, { apply: true })).toEqual({ dryRun: false, inserted: [], unchanged: result.inserted });
  });

  it('our exports of awkward payloads pass the reference rules and round-trip exactly', async () => {
    const s = await openTestStore(backend);
    opened.push(s);
    const payloads = [
      '{"big":12345678901234567890,"f":[1.0,0.1,1e+21,-0.0,1e-07,5e-324,1.7976931348623157e+308],"n":0}',
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
      '{"s":"q\\"\\\\\\b\\f\\n\\r\\t\\u0001\\u001f\\u007f/\\u2028😀é","！":1,"😀":2,"":{"":[]}}',
      '{"deep":' + '['.repeat(200) + ']'.repeat(200) + '}',
    ];
    for (const [i, payloadJson] of payloads.entries()) {
      await s.store.create({ namespace: i % 2 ? 'ns-odd' : 'ns-even', sessionId: `s-${i}`, payloadJson, createdAt: '2026-08-08T07:00:00Z', sourceRef: `ref:${i}` });
    }
    const dir = tempDir();
    const written = await writeBundleFile(s.store, join(dir, 'all.json'));
    const text = readFileSync(written.output, 'utf8');
    expect(pythonAcceptsBundle(text)).toEqual([1, 2, 3, 4]);
    const stored = await Promise.all([1, 2, 3, 4].map(async (id) => (await s.store.findById(id))?.payloadJson));
    expect(stored[0]).toBe(payloads[0]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    const target = await openTestStore(backend);
    opened.push(target);
    expect((await importBundle(target.store, text, { apply: true })).inserted).toEqual([1, 2, 3, 4]);
    for (const id of [1, 2, 3, 4]) {
      const a = await s.store.findById(id);
      const b = await target.store.findById(id);
      expect({ ...b, payload: undefined }).toEqual({ ...a, payload: undefined });
    }
    const again = await writeBundleFile(target.store, join(dir, 'again.json'), { now: () => new Date(JSON.parse(text).exported_at as string) });
    expect(readFileSync(again.output, 'utf8')).toBe(text);
  });
});
