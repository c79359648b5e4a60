import { describe, expect, it } from 'vitest';
import { CheckpointValidationError } from '../errors.js';
import type { JsonNode } from './json-node.js';
import { isIntegerLexeme } from './json-node.js';
import { parseJsonTree } from './parse-json-tree.js';

function errorOf(text: string): string | null {
  try {
    parseJsonTree(text);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(CheckpointValidationError);
    return (error as Error).message;
  }
}

// The CPython corpus (error vectors and mutations) runs through every entry point in
// canonical/python-corpus.python-parity.test.ts.

describe('parseJsonTree: lossless tree', () => {
  it('keeps number lexemes, member order, duplicates and spans', () => {
    const text = '{"b": 1.0, "a": [12345678901234567890, -0, 1E400, NaN, -Infinity], "b": 1e-07}';
    const tree = parseJsonTree(text);
    expect(tree.kind).toBe('object');
    if (tree.kind !== 'object') return;
    expect(tree.entries.map(([k]) => k)).toEqual(['b', 'a', 'b']);
    const [first, second] = tree.entries;
    expect(first?.[1]).toEqual({ kind: 'number', lexeme: '1.0', start: 6, end: 9 });
    const arr = second?.[1] as Extract<JsonNode, { kind: 'array' }>;
    expect(arr.items.map((n) => (n.kind === 'number' ? n.lexeme : n.kind))).toEqual(['12345678901234567890', '-0', '1E400', 'NaN', '-Infinity']);
    expect(text.slice(arr.start, arr.end)).toBe('[12345678901234567890, -0, 1E400, NaN, -Infinity]');
    expect(tree.start).toBe(0);
    expect(tree.end).toBe(text.length);
  });

  it('keeps __proto__ and constructor as plain data', () => {
    const tree = parseJsonTree('{"__proto__": {"polluted": true}, "constructor": {"prototype": 1}}');
    expect(tree.kind === 'object' && tree.entries.map(([k]) => k)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('decodes escapes, surrogate pairs and keeps lone surrogates like Python', () => {
    const value = (text: string) => {
      const n = parseJsonTree(text);
      return n.kind === 'string' ? n.value : undefined;
    };
    expect(value('"\\ud83d\\ude00"')).toBe('😀');
    expect(value('"\\ud83d"')).toBe('\ud83d');
    expect(value('"\\ude00\\ud83d"')).toBe('\ude00\ud83d');
    expect(value('"\\ud83d\\u0041"')).toBe('\ud83dA');
    expect(value('"a\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9"')).toBe('a"\\/\b\f\n\r\té');
    expect(value('"😀\u007f\u2028"')).toBe('😀\u007f\u2028');
  });

  it('counts positions in code points like Python', () => {
    expect(errorOf('{"😀😀": x}')).toBe('Expecting value: line 1 column 8 (char 7)');
    expect(errorOf('[\n"😀",\n x')).toBe('Expecting value: line 3 column 2 (char 8)');
  });

  it('limits depth without recursion and with a clear message', () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(() => parseJsonTree(deep(1024))).not.toThrow();
    expect(() => parseJsonTree(deep(1025))).toThrow('JSON nesting exceeds the maximum depth of 1024');
    expect(() => parseJsonTree(deep(3), { maxDepth: 2, depthMessage: 'too deep' })).toThrow('too deep');
    // Far beyond any call stack: still a validation error, never a RangeError.
    expect(() => parseJsonTree(deep(200_000))).toThrow(CheckpointValidationError);
    expect(() => parseJsonTree(deep(200_000), { maxDepth: 300_000 })).not.toThrow();
  });

  it('keepDepth keeps only shells below the given level, still checking them', () => {
    const text = '{"items": [{"payload": {"a": [1, 2]}, "id": 3}]}';
    const tree = parseJsonTree(text, { keepDepth: 3 });
    if (tree.kind !== 'object') throw new Error('object expected');
    const items = tree.entries[0]?.[1];
    if (items?.kind !== 'array') throw new Error('array expected');
    const item = items.items[0];
    if (item?.kind !== 'object') throw new Error('object expected');
    const payload = item.entries[0]?.[1];
    expect(payload).toMatchObject({ kind: 'object', entries: [], skipped: true });
    expect(payload && text.slice(payload.start, payload.end)).toBe('{"a": [1, 2]}');
    expect(item.entries[1]).toEqual(['id', { kind: 'number', lexeme: '3', start: 44, end: 45 }]);
    expect(() => parseJsonTree('{"items": [{"payload": {"a": [1, 2,]}}]}', { keepDepth: 3 })).toThrow('Expecting value');
  });

  it('rejects bad options', () => {
    expect(() => parseJsonTree('{}', { maxDepth: 0 })).toThrow('maxDepth must be a positive integer');
  });
});

describe('isIntegerLexeme', () => {
  it.each([
    ['1', true],
    ['-0', true],
    ['12345678901234567890', true],
    ['1.0', false],
    ['1e3', false],
    ['NaN', false],
    ['-Infinity', false],
  ])('%s -> %s', (lexeme, expected) => {
    expect(isIntegerLexeme(lexeme)).toBe(expected);
  });
});
