import { readFixtureJson, type CanonicalVector } from '@session-checkpoint/fixtures';
import { describe, expect, it } from 'vitest';
import { CheckpointValidationError } from '../errors.js';
import { sha256Hex, utf8ByteLength } from '../sha256.js';
import { canonicalizeJson } from './canonicalize-json.js';
import { canonicalize } from './canonicalize-value.js';
import { canonicalPayloadFromJson, checkStoredPayload } from './payload.js';

type Vector = CanonicalVector;

const load = (file: string): Vector[] => readFixtureJson<Vector[]>(file);

function inputOf(vector: Vector): string {
  if (vector.input_json !== undefined) return vector.input_json;
  const t = vector.input_template!;
  return t.prefix + t.repeat.repeat(t.count) + t.suffix;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

/**
 * Where we deliberately differ from the Python reference (DESIGN.md 3.1). Each entry asserts our
 * outcome instead of Python's.
 */
const DELIBERATE: Record<string, (input: string) => void> = {
  // CPython's int_max_str_digits (4300) is an interpreter limit, not a JSON rule: we accept and keep
  // the integer exactly as written.
  int_4301_digits: (input) => {
    const payload = canonicalPayloadFromJson(input);
    expect(payload.json).toBe(input);
    expect(payload.json).toHaveLength('{"n":'.length + 4301 + '}'.length);
    expect(payload.sha256).toBe(sha256Hex(input));
  },
  // Python parses lone surrogates and then crashes with UnicodeEncodeError while encoding; we raise
  // a validation error naming the same unit and the same code point position Python reports.
  lone_high_surrogate_value: (input) => expectLoneSurrogate(input, '\\ud800', 6),
  lone_low_surrogate_value: (input) => expectLoneSurrogate(input, '\\udc00', 6),
  lone_surrogate_key: (input) => expectLoneSurrogate(input, '\\udfff', 2),
  // Depth rule: the top-level object counts as depth 1 and the default maxDepth is 1000. This input
  // is the top-level object plus 1000 nested arrays = depth 1001, so we reject it too (Python fails
  // with RecursionError) — with a validation error instead of a crash.
  deep_nesting_1000: (input) => {
    expect(maxDepthOf(input)).toBe(1001);
    expectDepthError(input);
    // One level less is within the rule and accepted.
    const within = input.replace('[', '').replace(']', '');
    expect(maxDepthOf(within)).toBe(1000);
    expect(canonicalPayloadFromJson(within).json).toBe(within);
  },
  // 100 001 levels: a validation error, never a stack overflow.
  deep_nesting_100000: (input) => {
    expect(maxDepthOf(input)).toBe(100_001);
    expectDepthError(input);
  },
};

function maxDepthOf(text: string): number {
  let depth = 0;
  let max = 0;
  for (const c of text) {
    if (c === '[' || c === '{') max = Math.max(max, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return max;
}

function expectLoneSurrogate(input: string, unit: string, position: number): void {
  const error = thrown(() => canonicalPayloadFromJson(input));
  expect(error).toBeInstanceOf(CheckpointValidationError);
  expect((error as Error).message).toBe(`payload is not valid JSON: lone surrogate '${unit}' at position ${position}`);
  // The same from a JS value holding the lone surrogate.
  const value = JSON.parse(input) as unknown;
  expect((thrown(() => canonicalize(value)) as Error).message).toBe(`payload is not valid JSON: lone surrogate '${unit}' at position ${position}`);
}

function expectDepthError(input: string): void {
  const error = thrown(() => canonicalPayloadFromJson(input));
  expect(error).toBeInstanceOf(CheckpointValidationError);
  expect((error as Error).message).toBe('payload nesting exceeds the maximum depth of 1000');
}

const files = ['canonical-vectors.json', 'canonical-vectors-large.json'] as const;
const handled: Record<string, number> = {};

describe.each(files)('Python golden vectors: %s', (file) => {
  const vectors = load(file);

  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_, vector) => {
    const input = inputOf(vector);
    handled[file] = (handled[file] ?? 0) + 1;
    const deliberate = DELIBERATE[vector.name];
    if (deliberate) {
      deliberate(input);
      return;
    }
    if (vector.error === null) {
      const payload = canonicalPayloadFromJson(input);
      if (!vector.canonical_omitted) expect(payload.json).toBe(vector.canonical);
      expect(payload.sha256).toBe(vector.sha256);
      expect(payload.bytes).toBe(vector.canonical_utf8_bytes);
      expect(utf8ByteLength(payload.json)).toBe(vector.canonical_utf8_bytes);
      expect(canonicalizeJson(input)).toBe(payload.json);
      // The canonical text passes the read-path check and is a fixed point.
      expect(checkStoredPayload(payload.json, payload.sha256)).toBeUndefined();
      expect(canonicalizeJson(payload.json)).toBe(payload.json);
      return;
    }
    // Python raised: we raise a CheckpointValidationError with exactly Python's message (parse
    // errors carry no prefix, like the reference CLI prints them).
    expect(['JSONDecodeError', 'CheckpointValidationError']).toContain(vector.error);
    const error = thrown(() => canonicalPayloadFromJson(input));
    expect(error).toBeInstanceOf(CheckpointValidationError);
    expect((error as Error).message).toBe(vector.error_message);
  });
});

describe('vector coverage', () => {
  it('handled every case of both files, none skipped', () => {
    // Runs after the tables above (vitest runs tests of a file in order).
    expect(load('canonical-vectors.json')).toHaveLength(94);
    expect(load('canonical-vectors-large.json')).toHaveLength(6);
    expect(handled).toEqual({ 'canonical-vectors.json': 94, 'canonical-vectors-large.json': 6 });
    // Every deliberate difference corresponds to a real vector.
    const names = new Set(load('canonical-vectors.json').map((v) => v.name));
    for (const name of Object.keys(DELIBERATE)) expect(names.has(name)).toBe(true);
  });

  it('the Python outcome of each deliberate difference is what we think it is', () => {
    const byName = new Map(load('canonical-vectors.json').map((v) => [v.name, v]));
    expect(byName.get('int_4301_digits')?.error).toBe('ValueError');
    expect(byName.get('lone_high_surrogate_value')?.error).toBe('UnicodeEncodeError');
    expect(byName.get('lone_high_surrogate_value')?.error_message).toContain("'\\ud800' in position 6");
    expect(byName.get('lone_surrogate_key')?.error_message).toContain("'\\udfff' in position 2");
    expect(byName.get('deep_nesting_1000')?.error).toBe('RecursionError');
    expect(byName.get('deep_nesting_100000')?.error).toBe('RecursionError');
    expect(byName.get('deep_nesting_100')?.error).toBeNull();
  });
});
