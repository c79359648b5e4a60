import { describe, expect, it } from 'vitest';
import { CheckpointValidationError } from '../errors.js';
import { canonicalizeJson } from './canonicalize-json.js';

function errorOf(text: string, maxDepth?: number): CheckpointValidationError {
  try {
    canonicalizeJson(text, maxDepth === undefined ? undefined : { maxDepth });
  } catch (error) {
    expect(error).toBeInstanceOf(CheckpointValidationError);
    return error as CheckpointValidationError;
  }
  throw new Error(`accepted: ${text}`);
}

describe('canonicalizeJson: output', () => {
  it.each([
    ['{"b":1,"a":2}', '{"a":2,"b":1}'],
    ['  [1 , 2 ]\r\n', '[1,2]'],
    ['"x"', '"x"'],
    ['7', '7'],
    ['-0', '0'],
    ['-0.0', '-0.0'],
    ['1E2', '100.0'],
    ['1e-400', '0.0'],
    ['-1e-400', '-0.0'],
    ['[1e22,1e-7,0.0001,1.5e300]', '[1e+22,1e-07,0.0001,1.5e+300]'],
    ['123456789012345678901234567890', '123456789012345678901234567890'],
    ['"\\/\\b\\f\\n\\r\\t\\u0000\\u001F\\u007f\\u2028"', '"/\\b\\f\\n\\r\\t\\u0000\\u001f\u007f\u2028"'],
    ['"\\uD83D\\uDE00"', '"😀"'],
    ['{"a":1,"a":{"x":NaN},"a":3}', '{"a":3}'],
    ['{"__proto__":1,"constructor":2,"toString":3}', '{"__proto__":1,"constructor":2,"toString":3}'],
    ['{"\\uff01":1,"\\ud83d\\ude00":2,"\\uffff":3,"\\ud800\\udc00":4}', '{"！":1,"￿":3,"𐀀":4,"😀":2}'],
  ])('%s -> %s', (input, expected) => {
    expect(canonicalizeJson(input)).toBe(expected);
  });

  it.each([
    // Verbatim spans: canonical parts of the input are copied, the rest rebuilt (CPython 3.11 outputs).
    ['{"a":[1,2],"b":{"c":1}}', '{"a":[1,2],"b":{"c":1}}'],
    ['{"a":[1, 2]}', '{"a":[1,2]}'],
    ['[1,[2,3] ,4]', '[1,[2,3],4]'],
    ['{"b":{"x":1},"a":[1.0,1.50]}', '{"a":[1.0,1.5],"b":{"x":1}}'],
    ['[ ]', '[]'],
    ['{"a":{ }}', '{"a":{}}'],
    ['{"a":"\\n","b":"\\u00e9"}', '{"a":"\\n","b":"é"}'],
    ['[[1,2],[3,-0],[1e2]]', '[[1,2],[3,0],[100.0]]'],
    ['{"a":1,"b":[true,false,null],"c":"x"}', '{"a":1,"b":[true,false,null],"c":"x"}'],
  ])('verbatim spans: %s -> %s', (input, expected) => {
    expect(canonicalizeJson(input)).toBe(expected);
  });

  it('sorts large objects (sort path) with last duplicate winning', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `k${(i * 7) % 40}`);
    const input = '{' + keys.map((k, i) => `"${k}":${i}`).join(',') + ',"k3":"last"}';
    const parsed = JSON.parse(input) as Record<string, unknown>;
    const expected = '{' + Object.keys(parsed).sort().map((k) => `"${k}":${JSON.stringify(parsed[k])}`).join(',') + '}';
    expect(canonicalizeJson(input)).toBe(expected);
  });
});

describe('canonicalizeJson: CPython error messages (checked against CPython 3.11 json.loads)', () => {
  it.each([
    ['{', 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
    ['[', 'Expecting value: line 1 column 2 (char 1)'],
    ['{"a"', "Expecting ':' delimiter: line 1 column 5 (char 4)"],
    ['{"a":', 'Expecting value: line 1 column 6 (char 5)'],
    ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ['[1 2]', "Expecting ',' delimiter: line 1 column 4 (char 3)"],
    ['[1,]', 'Expecting value: line 1 column 4 (char 3)'],
    ['{,}', 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
    ['"abc', 'Unterminated string starting at: line 1 column 1 (char 0)'],
    ['"\\x"', 'Invalid \\escape: line 1 column 2 (char 1)'],
    ['"\\u12"', 'Invalid \\uXXXX escape: line 1 column 3 (char 2)'],
    ['"\\u12G4"', 'Invalid \\uXXXX escape: line 1 column 3 (char 2)'],
    ['"\\ud800\\uZZZZ"', 'Invalid \\uXXXX escape: line 1 column 9 (char 8)'],
    ['"a\tb"', 'Invalid control character at: line 1 column 3 (char 2)'],
    ['\n\n  {"a":1,\n "b": x}', 'Expecting value: line 4 column 7 (char 18)'],
    ['😀😀 x', 'Expecting value: line 1 column 1 (char 0)'],
    ['{"😀":1} 2', 'Extra data: line 1 column 9 (char 8)'],
    ['-', 'Expecting value: line 1 column 1 (char 0)'],
    ['-x', 'Expecting value: line 1 column 1 (char 0)'],
    ['01', 'Extra data: line 1 column 2 (char 1)'],
    ['1.', 'Extra data: line 1 column 2 (char 1)'],
    ['1.e5', 'Extra data: line 1 column 2 (char 1)'],
    ['1e', 'Extra data: line 1 column 2 (char 1)'],
    ['1e+', 'Extra data: line 1 column 2 (char 1)'],
    ['nul', 'Expecting value: line 1 column 1 (char 0)'],
    ['tru', 'Expecting value: line 1 column 1 (char 0)'],
    ['NaNx', 'Extra data: line 1 column 4 (char 3)'],
    ['\ufeff{}', 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)'],
    ['  ', 'Expecting value: line 1 column 3 (char 2)'],
    ['{"a":1}}', 'Extra data: line 1 column 8 (char 7)'],
    ['"\\', 'Unterminated string starting at: line 1 column 1 (char 0)'],
    ['"\\u00e9"x', 'Extra data: line 1 column 9 (char 8)'],
    ['[1,\r\n2,,3]', 'Expecting value: line 2 column 3 (char 7)'],
    ["{'a':1}", 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
    ['{"a":1 /* c */}', "Expecting ',' delimiter: line 1 column 8 (char 7)"],
    ['{"a":\u00a01}', 'Expecting value: line 1 column 6 (char 5)'],
  ])('%j', (input, message) => {
    expect(errorOf(input).message).toBe(message);
  });

  it('reports NaN/Infinity like the reference, after syntax errors', () => {
    for (const input of ['NaN', '[Infinity]', '{"a":-Infinity}', '[1e400]', '[-1E400]']) {
      expect(errorOf(input).message).toBe('payload is not valid JSON: Out of range float values are not JSON compliant');
    }
    // A later syntax error wins, as in Python (json.loads fails before json.dumps runs).
    expect(errorOf('[NaN,').message).toBe('Expecting value: line 1 column 6 (char 5)');
    // NaN wins over a lone surrogate (json.dumps fails before the UTF-8 encoding).
    expect(errorOf('["\\ud800",NaN]').message).toContain('Out of range float');
  });

  it('rejects lone surrogates (deliberate difference) at the position Python would report', () => {
    expect(errorOf('["\\ud800"]').message).toBe("payload is not valid JSON: lone surrogate '\\ud800' at position 2");
    // Reversed pair: both units are lone; the first in the canonical output is named.
    expect(errorOf('{"k":"\\ude00\\ud83d"}').message).toBe("payload is not valid JSON: lone surrogate '\\ude00' at position 6");
    // An escaped high surrogate followed by a raw low one is two lone units for Python too.
    expect(errorOf('["\\ud83d\ude00"]').message).toBe("payload is not valid JSON: lone surrogate '\\ud83d' at position 2");
    // A raw lone surrogate in the text.
    expect(errorOf('["a\ud800"]').message).toBe("payload is not valid JSON: lone surrogate '\\ud800' at position 3");
    // Position is in the sorted output, in code points: "😀" before it counts once.
    expect(errorOf('{"b":"\\ud800","a":"😀"}').message).toBe("payload is not valid JSON: lone surrogate '\\ud800' at position 14");
    // Dropped duplicates are not reported (Python never sees them).
    expect(canonicalizeJson('{"a":"\\ud800","a":1}')).toBe('{"a":1}');
    // A raw high surrogate then an escaped low one is a different key from "😀" for Python (two
    // lone code points), though a JS string holds both as the same character: not a duplicate.
    // CPython 3.11: UnicodeEncodeError at position 2, '\ud83d'.
    expect(errorOf('{"\ud83d\\ude00":1,"😀":2}').message).toBe("payload is not valid JSON: lone surrogate '\\ud83d' at position 2");
    expect(errorOf('{"😀":2,"\ud83d\\ude00":1}').message).toBe("payload is not valid JSON: lone surrogate '\\ud83d' at position 2");
  });

  it('limits depth with an explicit stack', () => {
    expect(canonicalizeJson('[[[]]]', { maxDepth: 3 })).toBe('[[[]]]');
    expect(errorOf('[[[]]]', 2).message).toBe('payload nesting exceeds the maximum depth of 2');
    expect(errorOf('{"a":{"b":{}}}', 2).message).toBe('payload nesting exceeds the maximum depth of 2');
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(errorOf(deep).message).toBe('payload nesting exceeds the maximum depth of 1000');
    expect(canonicalizeJson(deep, { maxDepth: 200_000 })).toBe(deep);
  });

  it('rejects a bad maxDepth option', () => {
    expect(errorOf('[]', 0).message).toBe('maxDepth must be a positive integer');
    expect(errorOf('[]', 1.5).message).toBe('maxDepth must be a positive integer');
  });
});
