import { readFileSync } from 'node:fs';
import { loadTranscript, readFixtureText } from '@session-checkpoint/fixtures';
import { describe, expect, it } from 'vitest';
import { formatPythonJson } from './json-layout.js';
import { parseJsonTree } from '../lossless/parse-json-tree.js';
import { RawJson, isRawJson } from '../lossless/raw-json.js';
import { treeToValue } from '../lossless/test-support/tree-to-value.js';

/** `json.dumps(json.loads(input), ensure_ascii=False, indent=N)` from CPython 3.11.7. */
const cases = JSON.parse(readFileSync(new URL('../lossless/test-support/python-json-cases.json', import.meta.url), 'utf8')) as {
  format2: Array<[string, string]>;
  format4: Array<[string, string]>;
};

const transcript = loadTranscript();

describe('formatPythonJson: Python layout', () => {
  it.each(cases.format2)('indent 2: %s', (input, expected) => {
    expect(formatPythonJson(treeToValue(parseJsonTree(input)))).toBe(expected);
  });

  it.each(cases.format4)('indent 4: %s', (input, expected) => {
    expect(formatPythonJson(treeToValue(parseJsonTree(input)), 4)).toBe(expected);
  });

  it('re-emits every JSON stdout of the Python CLI transcript byte for byte', () => {
    const jsonOutputs = transcript.filter((c) => c.stdout.startsWith('{'));
    expect(jsonOutputs.length).toBeGreaterThan(50);
    for (const c of jsonOutputs) {
      const tree = parseJsonTree(c.stdout);
      // Payloads go through RawJson as compact canonical text, as the CLI will pass them.
      const value = treeToValue(tree, (path) => path[path.length - 1] === 'payload');
      expect(formatPythonJson(value) + '\n', c.name).toBe(c.stdout);
    }
  });

  it('re-emits the Python export bundles byte for byte', () => {
    for (const name of ['py-export-all.json', 'py-export-app-a.json', 'py-export-app_b.v2.json']) {
      const text = readFixtureText(name);
      const value = treeToValue(parseJsonTree(text), (path) => path[path.length - 1] === 'payload');
      expect(formatPythonJson(value) + '\n', name).toBe(text);
    }
  });

  it('writes plain JS values', () => {
    expect(formatPythonJson({ ok: true, result: { ids: [1, 2], none: null, s: 'é"\u0001' } })).toBe(
      '{\n  "ok": true,\n  "result": {\n    "ids": [\n      1,\n      2\n    ],\n    "none": null,\n    "s": "é\\"\\u0001"\n  }\n}',
    );
    expect(formatPythonJson([])).toBe('[]');
    expect(formatPythonJson({})).toBe('{}');
    expect(formatPythonJson('x')).toBe('"x"');
    expect(formatPythonJson(2 ** 64)).toBe('18446744073709551616');
    expect(formatPythonJson(12345678901234567890n)).toBe('12345678901234567890');
    expect(formatPythonJson({ a: undefined, b: 1 })).toBe('{\n  "b": 1\n}');
    expect(formatPythonJson(new Map([['2', 1], ['1', 2]]))).toBe('{\n  "2": 1,\n  "1": 2\n}');
    expect(formatPythonJson(Object.assign(Object.create(null) as object, { x: 1 }))).toBe('{\n  "x": 1\n}');
    expect(formatPythonJson({ a: [1] }, 0)).toBe('{\n"a": [\n1\n]\n}');
  });

  it('keeps __proto__ keys as data', () => {
    const value = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    expect(formatPythonJson(value)).toBe('{\n  "__proto__": {\n    "x": 1\n  }\n}');
  });

  it('embeds RawJson untouched at any level', () => {
    const raw = new RawJson('{"a":[1.0,1e-07,12345678901234567890,{},[],"x,\\":[{"],"b":{"c":-0.0}}');
    expect(isRawJson(raw)).toBe(true);
    expect(formatPythonJson({ p: raw })).toBe(
      '{\n  "p": {\n    "a": [\n      1.0,\n      1e-07,\n      12345678901234567890,\n      {},\n      [],\n      "x,\\":[{"\n    ],\n    "b": {\n      "c": -0.0\n    }\n  }\n}',
    );
    expect(formatPythonJson(new RawJson(' [ 1 , { } ] '))).toBe('[\n  1,\n  {}\n]');
    expect(formatPythonJson(new RawJson('"a\\\\"'))).toBe('"a\\\\"');
  });

  it('continues at a given level for embedding', () => {
    expect(formatPythonJson({ a: [1] }, 2, 2)).toBe('{\n      "a": [\n        1\n      ]\n    }');
  });

  it('handles deep values without recursion', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const text = formatPythonJson(deep, 0);
    expect(text.length).toBeGreaterThan(400_000);
    const raw = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(formatPythonJson(new RawJson(raw), 0)).toBe('[\n'.repeat(99_999) + '[]' + '\n]'.repeat(99_999));
  });

  it('rejects what JSON cannot hold', () => {
    expect(() => formatPythonJson(1.5)).toThrow(TypeError);
    expect(() => formatPythonJson(Number.NaN)).toThrow(TypeError);
    expect(() => formatPythonJson(new Date())).toThrow('Object of type Date is not JSON serializable');
    expect(() => formatPythonJson([undefined])).toThrow(TypeError);
    expect(() => formatPythonJson(() => 1)).toThrow(TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => formatPythonJson(cyclic)).toThrow('Circular reference detected');
    // The same object twice (not a cycle) is fine.
    const shared = { x: 1 };
    expect(formatPythonJson([shared, shared], 0)).toBe('[\n{\n"x": 1\n},\n{\n"x": 1\n}\n]');
  });
});
