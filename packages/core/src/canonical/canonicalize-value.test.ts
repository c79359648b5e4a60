import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CheckpointValidationError } from '../errors.js';
import { canonicalize } from './canonicalize-value.js';

function errorOf(value: unknown, maxDepth?: number): string {
  try {
    canonicalize(value, maxDepth === undefined ? undefined : { maxDepth });
  } catch (error) {
    expect(error).toBeInstanceOf(CheckpointValidationError);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('canonicalize(value)', () => {
  it('sorts keys by code point and prints compactly', () => {
    expect(canonicalize({ b: 1, a: [true, false, null], '\u{1F600}': 2, '\uff01': 3 })).toBe('{"a":[true,false,null],"b":1,"！":3,"😀":2}');
    expect(canonicalize({})).toBe('{}');
    expect(canonicalize([])).toBe('[]');
    expect(canonicalize('x')).toBe('"x"');
    expect(canonicalize(null)).toBe('null');
  });

  it('prints numbers: integral values as integers, others like Python repr', () => {
    expect(canonicalize([1, 1.0, -0, 0.5, 1e-7, 1e21, 2 ** 64, 0.1 + 0.2, 1e16 + 0.5])).toBe(
      '[1,1,0,0.5,1e-07,1000000000000000000000,18446744073709551616,0.30000000000000004,10000000000000000]',
    );
    expect(canonicalize({ n: 12345678901234567890n, m: -5n })).toBe('{"m":-5,"n":12345678901234567890}');
  });

  it('escapes strings like json.dumps(ensure_ascii=False)', () => {
    expect(canonicalize({ s: '"\\/\b\f\n\r\t\u0000\u001f\u007f\u2028\ufeff😀é' })).toBe(
      '{"s":"\\"\\\\/\\b\\f\\n\\r\\t\\u0000\\u001f\u007f\u2028\ufeff😀é"}',
    );
    expect(canonicalize({ 'a"b': 1, 'c\n': 2 })).toBe('{"a\\"b":1,"c\\n":2}');
  });

  it('keeps __proto__ and inherited-looking names as ordinary keys', () => {
    const value = JSON.parse('{"__proto__":{"x":1},"constructor":2,"toString":3}') as unknown;
    expect(canonicalize(value)).toBe('{"__proto__":{"x":1},"constructor":2,"toString":3}');
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  it('accepts null-prototype objects and objects from another realm', () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare['b'] = 1;
    bare['a'] = 2;
    expect(canonicalize(bare)).toBe('{"a":2,"b":1}');
    expect(canonicalize(runInNewContext('({ z: [1, { y: 2 }], a: "x" })'))).toBe('{"a":"x","z":[1,{"y":2}]}');
  });

  it('lists own enumerable string keys only, even with a polluted Object.prototype', () => {
    const withSymbol = { a: 1, [Symbol('s')]: 2 };
    Object.defineProperty(withSymbol, 'hidden', { value: 3, enumerable: false });
    expect(canonicalize(withSymbol)).toBe('{"a":1}');
    (Object.prototype as Record<string, unknown>)['polluted'] = 1;
    try {
      expect(canonicalize({ a: 1 })).toBe('{"a":1}');
    } finally {
      delete (Object.prototype as Record<string, unknown>)['polluted'];
    }
  });

  it('sorts objects with many keys', () => {
    const value: Record<string, number> = {};
    for (let i = 0; i < 100; i++) value[`k${(i * 37) % 100}`] = i;
    value['😀'] = -1;
    value['\uff01'] = -2;
    const keys = Object.keys(value).filter((k) => k.startsWith('k')).sort();
    expect(canonicalize(value)).toBe('{' + keys.map((k) => `"${k}":${value[k]}`).join(',') + ',"！":-2,"😀":-1}');
  });

  it('does not honour toJSON and rejects non-JSON values like json.dumps', () => {
    expect(errorOf({ d: new Date(0) })).toBe('payload is not valid JSON: Object of type Date is not JSON serializable');
    expect(errorOf({ toJSON: () => 1 })).toBe('payload is not valid JSON: Object of type function is not JSON serializable');
    expect(errorOf(new Set([1]))).toBe('payload is not valid JSON: Object of type Set is not JSON serializable');
    expect(errorOf({ m: new Map() })).toBe('payload is not valid JSON: Object of type Map is not JSON serializable');
    class Point {
      x = 1;
    }
    expect(errorOf([new Point()])).toBe('payload is not valid JSON: Object of type Point is not JSON serializable');
    expect(errorOf({ u: undefined })).toBe('payload is not valid JSON: Object of type undefined is not JSON serializable');
    expect(errorOf([1, , 3])).toBe('payload is not valid JSON: Object of type undefined is not JSON serializable');
    expect(errorOf({ f() {} })).toBe('payload is not valid JSON: Object of type function is not JSON serializable');
    expect(errorOf(Symbol('s'))).toBe('payload is not valid JSON: Object of type symbol is not JSON serializable');
    expect(errorOf(new Uint8Array(2))).toBe('payload is not valid JSON: Object of type Uint8Array is not JSON serializable');
    expect(errorOf(Object('boxed'))).toBe('payload is not valid JSON: Object of type String is not JSON serializable');
  });

  it('rejects NaN and infinities', () => {
    for (const x of [NaN, Infinity, -Infinity]) {
      expect(errorOf({ x })).toBe('payload is not valid JSON: Out of range float values are not JSON compliant');
    }
  });

  it('rejects lone surrogates at the position Python reports', () => {
    expect(errorOf({ a: '\ud800' })).toBe("payload is not valid JSON: lone surrogate '\\ud800' at position 6");
    expect(errorOf({ '\udfff': 1 })).toBe("payload is not valid JSON: lone surrogate '\\udfff' at position 2");
    expect(errorOf({ b: 'x\udc00', a: '😀' })).toBe("payload is not valid JSON: lone surrogate '\\udc00' at position 15");
    // As in Python, the encoder error comes after json.dumps errors.
    expect(errorOf(['\ud800', NaN])).toContain('Out of range float');
  });

  it('detects cycles instead of hanging, with any maxDepth', () => {
    const a: unknown[] = [];
    a.push(a);
    expect(errorOf(a)).toBe('payload is not valid JSON: Circular reference detected');
    const o: Record<string, unknown> = { x: { y: {} } };
    (o['x'] as Record<string, Record<string, unknown>>)['y']!['back'] = o;
    expect(errorOf(o, 1_000_000)).toBe('payload is not valid JSON: Circular reference detected');
    // Shared, non-cyclic references are fine (Python accepts them too).
    const shared = { k: 1 };
    expect(canonicalize({ a: shared, b: [shared, shared] })).toBe('{"a":{"k":1},"b":[{"k":1},{"k":1}]}');
  });

  it('limits depth without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { k: deep };
    expect(errorOf(deep)).toBe('payload nesting exceeds the maximum depth of 1000');
    expect(canonicalize(deep, { maxDepth: 100_000 })).toHaveLength(100_000 * 6 + 1 - 50_000 * 4);
    expect(canonicalize([[[1]]], { maxDepth: 3 })).toBe('[[[1]]]');
    expect(errorOf([[[1]]], 2)).toBe('payload nesting exceeds the maximum depth of 2');
    expect(errorOf({ a: {} }, 1)).toBe('payload nesting exceeds the maximum depth of 1');
  });
});
