import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints } from './key-order.js';

/** Reference order: compare arrays of code points (lone surrogates are their own code point). */
function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return Math.sign(x.length - y.length);
}

describe('key order', () => {
  it('orders by code point, not UTF-16 unit', () => {
    expect(compareCodePoints('\uff01', '😀')).toBe(-1);
    expect('\uff01' < '😀').toBe(false); // why the custom comparator exists
    expect(compareCodePoints('\uffff', '\u{10000}')).toBe(-1);
    expect(['😀', '\uff01', 'a', 'é', 'e\u0301'].sort(compareCodePoints)).toEqual(['a', 'e\u0301', 'é', '\uff01', '😀']);
  });

  it('orders lone surrogates by their own value, like Python', () => {
    expect(compareCodePoints('\ud800', '\ue000')).toBe(-1);
    expect(compareCodePoints('\ud83d\ude00', '\ud83d')).toBe(1);
    expect(compareCodePoints('\ud83dx', '\ud83d\ude00')).toBe(-1);
  });

  it('agrees with a reference comparator on arbitrary strings', () => {
    const unit = fc.constantFrom('a', 'z', '\u00e9', '\ud7ff', '\ud800', '\udbff', '\udc00', '\udfff', '\ue000', '\uff01', '\uffff');
    const key = fc.array(unit, { maxLength: 4 }).map((units) => units.join(''));
    fc.assert(
      fc.property(key, key, (a, b) => {
        expect(compareCodePoints(a, b)).toBe(byCodePoints(a, b));
      }),
      { numRuns: 5000 },
    );
  });
});
