import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints, prefixUpperBound, sourceRefBounds } from './ordering.js';

/*
 * The prefix range [prefix, prefixUpperBound(prefix)) must hold every valid ref (at most 256 code
 * points, no controls, no lone surrogates) that starts with the prefix and nothing else, including
 * refs that continue the prefix with U+10FFFF, the highest code point.
 */

const inRange = (ref: string, lo: string, hi: string) => compareCodePoints(ref, lo) >= 0 && compareCodePoints(ref, hi) < 0;

describe('prefixUpperBound', () => {
  it('bounds refs that continue the prefix with U+10FFFF', () => {
    for (const prefix of ['lg/', 'w/\u{10FFFF}', '\u{10FFFF}', '\u{10FFFF}\u{10FFFF}', 'a\ud7ff']) {
      const hi = prefixUpperBound(prefix);
      for (const tail of ['', 'x', '\u{10FFFF}', '\u{10FFFF}\u{10FFFF}/1', '\uffff']) {
        expect(inRange(prefix + tail, prefix, hi), JSON.stringify([prefix, tail])).toBe(true);
      }
    }
  });

  it('skips the surrogate block and drops trailing U+10FFFF before raising', () => {
    expect(prefixUpperBound('a/')).toBe('a0');
    expect(prefixUpperBound('a\ud7ff')).toBe('a\ue000');
    expect(prefixUpperBound('a\uffff')).toBe('a\u{10000}');
    expect(prefixUpperBound('a\u{10FFFF}\u{10FFFF}')).toBe('b');
    expect(Array.from(prefixUpperBound('\u{10FFFF}'))).toHaveLength(257);
  });

  it('holds exactly the refs that start with the prefix', () => {
    const point = fc.constantFrom('a', 'b', '/', '~', '\u00e9', '\ud7ff', '\ue000', '\uffff', '\u{10000}', '\u{10FFFF}');
    const text = (max: number) => fc.array(point, { maxLength: max }).map((p) => p.join(''));
    fc.assert(
      fc.property(text(4).filter((p) => p !== ''), text(6), (prefix, ref) => {
        const { lo, hi } = sourceRefBounds({ prefix });
        expect(inRange(ref, lo, hi)).toBe(ref.startsWith(prefix));
        expect(inRange(prefix + ref, lo, hi)).toBe(true);
      }),
    );
  });
});
