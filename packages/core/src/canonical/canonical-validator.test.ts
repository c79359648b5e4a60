import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCanonicalObjectText, isCanonicalObjectTextByReader, isCanonicalObjectTextFast } from './canonical-validator.js';
import { canonicalizeJson } from './canonicalize-json.js';
import { randomJsonTexts } from './test-support/random-json.js';

/*
 * The fast scan may only say "canonical" where the reader-based check says so too; it may pass
 * any text on (then the reader decides). These tests hold it to that on hand-made edge cases, on
 * seeded random texts and their canonical forms, and on random edits of canonical texts; and check
 * that ordinary payloads do take the fast scan (otherwise it would only cost time).
 */

/** Fails with the text when the fast scan accepts what the reader refuses. */
function expectSound(text: string, maxDepth = 1000): void {
  if (isCanonicalObjectTextFast(text, maxDepth)) expect(isCanonicalObjectTextByReader(text, maxDepth), JSON.stringify(text)).toBe(true);
}

/** The canonical text of `text`, or undefined when it has none. */
function canonicalOf(text: string): string | undefined {
  try {
    return canonicalizeJson(text);
  } catch {
    return undefined;
  }
}

describe('isCanonicalObjectTextFast', () => {
  it.each([
    '{}',
    '{"a":1}',
    '{"a":-1,"b":0,"c":12345678901234567890}',
    '{"a":1.0,"b":-0.0,"c":1e+16,"d":1e-07,"e":0.0001,"f":5e-324,"g":1.7976931348623157e+308}',
    '{"a":[],"b":{},"c":[[],{}],"d":[1,"x",true,false,null]}',
    '{"a":"\\" \\\\ \\b \\f \\n \\r \\t \\u0000 \\u001f \\u000b / \u007f \u2028 \ufeff é 😀"}',
    '{"":0,"A":1,"a":2,"aa":3,"b":4,"é":5,"\uff01":6}',
    '{"items":[{"content":[{"text":"hi","type":"output_text"}],"id":"msg_1","role":"assistant","type":"message"}]}',
  ])('takes canonical payloads on its own: %s', (text) => {
    expect(isCanonicalObjectTextFast(text, 1000)).toBe(true);
    expect(isCanonicalObjectTextByReader(text, 1000)).toBe(true);
  });

  it.each([
    // Not canonical: refused by both.
    '', ' {}', '{} ', '{ }', '[]', '"a"', '1', '{"a":1,}', '{"a":1', '{"a" :1}', '{"a":1}{}', '{"a":1}x',
    '{"a":-0}', '{"a":01}', '{"a":1.50}', '{"a":1e16}', '{"a":1E+16}', '{"a":1.}', '{"a":.5}', '{"a":1e}', '{"a":-}',
    '{"a":NaN}', '{"a":Infinity}', '{"a":-Infinity}', '{"a":tru}', '{"a":nul}',
    '{"b":1,"a":2}', '{"a":1,"a":1}', '{"aa":1,"a":2}',
    '{"a":"\\/"}', '{"a":"\\u00e9"}', '{"a":"\\u000a"}', '{"a":"\\u001F"}', '{"a":"\\u0008"}', '{"a":"\\x"}', '{"a":"\\u00"}',
    '{"a":"\\ud83d\\ude00"}', '{"a":"\ud800"}', '{"a":"\udc00"}', '{"a":"\udc00\ud800"}', '{"a":"\u0001"}', '{"a":"x',
    '{"a":[1,]}', '{"a":[,1]}', '{"a":]}', '{"a":[}', '{"a":{"b":1]}', '{"a":[1}}', '{a:1}', '{"a"}', '{"a":}',
    // Canonical, but left to the reader: keys with an escape or a surrogate.
    '{"a\\u0000":1}', '{"😀":1}', '{"a":1,"😀":2}',
  ])('leaves %s to the reader, which decides', (text) => {
    expect(isCanonicalObjectTextFast(text, 1000)).toBe(false);
    expect(isCanonicalObjectText(text, 1000)).toBe(isCanonicalObjectTextByReader(text, 1000));
  });

  it('keeps maxDepth, and nests deeper than its first scratch size', () => {
    expect(isCanonicalObjectTextFast('{"a":[[]]}', 3)).toBe(true);
    expect(isCanonicalObjectTextFast('{"a":[[]]}', 2)).toBe(false);
    const deep = `{"a":${'['.repeat(300)}${']'.repeat(300)}}`;
    expect(isCanonicalObjectTextFast(deep, 301)).toBe(true);
    expect(isCanonicalObjectTextFast(deep, 300)).toBe(false);
    expect(isCanonicalObjectTextByReader(deep, 300)).toBe(false);
    // Keys of an outer object are still compared after a deep inner value.
    expect(isCanonicalObjectTextFast(`{"b":${'{"x":'.repeat(100)}1${'}'.repeat(100)},"a":1}`, 1000)).toBe(false);
    expect(isCanonicalObjectTextFast(`{"a":${'{"x":'.repeat(100)}1${'}'.repeat(100)},"b":1}`, 1000)).toBe(true);
  });

  it('never accepts what the reader refuses: seeded random texts and their canonical forms', () => {
    let fast = 0;
    for (const text of randomJsonTexts(20000, 0x5eed17)) {
      expectSound(text);
      const canonical = canonicalOf(text);
      if (canonical === undefined) continue;
      expectSound(canonical);
      expectSound(canonical, 2);
      if (isCanonicalObjectTextFast(canonical, 1000)) fast++;
    }
    // Most canonical objects without escaped or surrogate keys take the fast scan.
    expect(fast).toBeGreaterThan(1000);
  });

  it('never accepts what the reader refuses: random edits of canonical texts', () => {
    const canonicals = randomJsonTexts(3000, 0xca11).map(canonicalOf).filter((text): text is string => text !== undefined && text.startsWith('{'));
    const piece = fc.oneof(
      fc.constantFrom(' ', ',', ':', '[', ']', '{', '}', '"', '\\', '\\u', '\\u00', '\\u001f', '\\ud800', '0', '-', '.', 'e', '+', 'E', 'NaN', 'true', '\u0000', '\ufeff', '😀', '\ud800', '\udc00', 'a', 'é'),
      fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
    );
    fc.assert(
      fc.property(fc.constantFrom(...canonicals), fc.array(fc.tuple(fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), piece), { minLength: 1, maxLength: 3 }), (text, edits) => {
        let s = text;
        for (const [at, kind, p] of edits) {
          const i = at % (s.length + 1);
          if (kind === 'insert') s = s.slice(0, i) + p + s.slice(i);
          else if (kind === 'delete') s = s.slice(0, i) + s.slice(i + 1);
          else s = s.slice(0, i) + p + s.slice(i + 1);
        }
        expectSound(s);
      }),
      { numRuns: 5000 },
    );
  });
});
