import { describe, expect, it } from 'vitest';
import { CheckpointValidationError } from '../errors.js';
import { sha256Hex } from '../sha256.js';
import { isCanonicalObjectText } from './canonical-validator.js';
import { canonicalPayloadFromJson, canonicalPayloadFromValue, checkStoredPayload } from './payload.js';

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CheckpointValidationError);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('canonicalPayloadFromJson / canonicalPayloadFromValue', () => {
  it('returns text, hash and UTF-8 size', () => {
    const p = canonicalPayloadFromJson('{ "b": 1, "a": "ä" }');
    expect(p).toEqual({ json: '{"a":"ä","b":1}', sha256: sha256Hex('{"a":"ä","b":1}'), bytes: 16 });
    expect(canonicalPayloadFromValue({ b: 1, a: 'ä' })).toEqual(p);
  });

  it('keeps number lexemes from text (and only from text)', () => {
    expect(canonicalPayloadFromJson('{"n":12345678901234567891,"f":1.0}').json).toBe('{"f":1.0,"n":12345678901234567891}');
    expect(canonicalPayloadFromValue({ n: 12345678901234567891n, f: 1.0 }).json).toBe('{"f":1,"n":12345678901234567891}');
  });

  it('requires a JSON object, checked after parsing', () => {
    for (const text of ['[]', '"s"', '1', 'null', 'NaN', '["\\ud800"]']) {
      expect(errorOf(() => canonicalPayloadFromJson(text))).toBe('payload must be a JSON object');
    }
    expect(errorOf(() => canonicalPayloadFromJson('[1,'))).toBe('Expecting value: line 1 column 4 (char 3)');
    for (const value of [[], 'x', 1, null, undefined, new Map(), new Date()]) {
      expect(errorOf(() => canonicalPayloadFromValue(value))).toBe('payload must be a JSON object');
    }
  });

  it('limits the canonical UTF-8 size, not the input size', () => {
    expect(canonicalPayloadFromJson('{"a":  "éé"}', { maxPayloadBytes: 12 }).bytes).toBe(12);
    expect(errorOf(() => canonicalPayloadFromJson('{"a":"ééé"}', { maxPayloadBytes: 12 }))).toBe('payload exceeds the 12-byte carrier limit');
    expect(errorOf(() => canonicalPayloadFromValue({ a: 'ééé' }, { maxPayloadBytes: 12 }))).toBe('payload exceeds the 12-byte carrier limit');
  });

  it('applies maxDepth and validates limits', () => {
    expect(errorOf(() => canonicalPayloadFromJson('{"a":[]}', { maxDepth: 1 }))).toBe('payload nesting exceeds the maximum depth of 1');
    expect(errorOf(() => canonicalPayloadFromValue({ a: [] }, { maxDepth: 1 }))).toBe('payload nesting exceeds the maximum depth of 1');
    expect(errorOf(() => canonicalPayloadFromJson('{}', { maxPayloadBytes: -1 }))).toBe('maxPayloadBytes must be a positive integer');
  });
});

describe('checkStoredPayload', () => {
  const good = '{"a":[1,1.5,"x\\n"],"b":{"c":null},"😀":true}';
  const hash = sha256Hex(good);

  it('accepts exactly canonical, correctly hashed text', () => {
    expect(checkStoredPayload(good, hash)).toBeUndefined();
    expect(checkStoredPayload('{}', sha256Hex('{}'))).toBeUndefined();
  });

  it('names the problem', () => {
    const check = (text: string, limits?: { maxPayloadBytes?: number; maxDepth?: number }) => checkStoredPayload(text, sha256Hex(text), limits);
    expect(checkStoredPayload(good, hash.toUpperCase())).toBe('payload hash mismatch');
    expect(checkStoredPayload(good + ' ', hash)).toBe('payload hash mismatch');
    expect(check('{"a":1')).toBe('invalid JSON');
    expect(check('{"a":NaN}')).toBe('invalid JSON');
    expect(check('{"a":"\\ud800"}')).toBe('invalid JSON');
    expect(check('[1]')).toBe('payload is not a JSON object');
    expect(check('{"b":1,"a":2}')).toBe('payload is not canonical');
    expect(check('{"a":1,"a":1}')).toBe('payload is not canonical');
    expect(check('{"a": 1}')).toBe('payload is not canonical');
    expect(check('{"a":1e2}')).toBe('payload is not canonical');
    expect(check('{"a":"\\u00e9"}')).toBe('payload is not canonical');
    expect(check('{"a":{"b":{}}}', { maxDepth: 2 })).toBe('payload nesting exceeds the maximum depth of 2');
    expect(check('{"a":"xx"}', { maxPayloadBytes: 9 })).toBe('payload exceeds the 9-byte carrier limit');
  });

  it('never throws', () => {
    expect(checkStoredPayload(undefined as unknown as string, hash)).toBe('invalid JSON');
    expect(checkStoredPayload(good, null as unknown as string)).toBe('payload hash mismatch');
    expect(checkStoredPayload(good, hash, { maxDepth: -1 })).toBe('maxDepth must be a positive integer');
    const deep = '{"a":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
    expect(checkStoredPayload(deep, sha256Hex(deep))).toBe('payload nesting exceeds the maximum depth of 1000');
  });
});

describe('isCanonicalObjectText (read-path validator)', () => {
  it.each([
    ['{}', true],
    ['{"a":1}', true],
    ['{"a":-0}', false],
    ['{"a":-0.0}', true],
    ['{"a":1.0}', true],
    ['{"a":1.50}', false],
    ['{"a":1e+16}', true],
    ['{"a":1e16}', false],
    ['{"a":0.0001}', true],
    ['{"a":1e-04}', false],
    ['{"a":01}', false],
    ['{"a":"\\u001f\\b\\t\\n\\f\\r\\"\\\\"}', true],
    ['{"a":"\\u0008"}', false],
    ['{"a":"\\u001F"}', false],
    ['{"a":"\\/"}', false],
    ['{"a":"\u007f\u2028😀"}', true],
    ['{"a":"\ud800"}', false],
    ['{"a":"\u0001"}', false],
    ['{"\\u0001":1,"\\u001f":2," ":3}', true],
    ['{"\\u001f":1,"\\u0001":2}', false],
    ['{"！":1,"😀":2}', true],
    ['{"😀":1,"！":2}', false],
    ['{"a":1,"a":2}', false],
    // Keys compared in place: a space or "!" sorts below the closing quote of the shorter key.
    ['{"a":1,"a ":2,"a!":3,"ab":4,"b":5}', true],
    ['{"a ":1,"a":2}', false],
    ['{"ab":1,"a!":2}', false],
    ['{"a":[1,-1,-10,10]}', true],
    ['{"a":[1,{"b":true,"c":false}],"b":null}', true],
    ['{"a":[1,]}', false],
    ['{"a":1} ', false],
    ['[]', false],
    ['{"a":1}{}', false],
  ])('%s -> %s', (text, expected) => {
    expect(isCanonicalObjectText(text, 1000)).toBe(expected);
  });

  it('applies maxDepth', () => {
    expect(isCanonicalObjectText('{"a":[[]]}', 3)).toBe(true);
    expect(isCanonicalObjectText('{"a":[[]]}', 2)).toBe(false);
  });
});
