import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkpointRef, encodeCheckpointId } from './refs.js';

/*
 * The id encoding turns JavaScript string order (MemorySaver's order of checkpoint ids) into the
 * store's code point order, and never produces the "/" that separates a checkpoint from its writes.
 */

const byCodePoint = (a: string, b: string): number => {
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return x.length - y.length;
};
const sign = (n: number) => Math.sign(n);

describe('encodeCheckpointId', () => {
  it('keeps plain ids (every uuid6) as they are', () => {
    expect(encodeCheckpointId('1ef4f797-8335-6428-8001-8a1503f9b875')).toBe('1ef4f797-8335-6428-8001-8a1503f9b875');
    expect(encodeCheckpointId('a~b}')).toBe('a~b}');
  });

  it('orders encodings by code point as JavaScript orders the ids, without a "/"', () => {
    const ch = fc.constantFrom('a', '-', '.', '/', '0', '$', '%', '&', '~', '\u007f', '\u00e9', '\ud7ff', '\ue000', '\uffff', '\u{10000}', '\u{1F600}', '\u{10FFFE}', '\u{10FFFF}');
    const id = fc.array(ch, { maxLength: 5 }).map((c) => c.join(''));
    fc.assert(
      fc.property(id, id, (a, b) => {
        const ea = encodeCheckpointId(a);
        const eb = encodeCheckpointId(b);
        expect(ea.includes('/')).toBe(false);
        expect(sign(byCodePoint(ea, eb))).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses control characters, lone surrogates and ids too long for the ref, saying why', () => {
    expect(() => encodeCheckpointId('a\nb')).toThrow(/control characters/);
    expect(() => encodeCheckpointId('a\ud800')).toThrow(/lone surrogates/);
    expect(checkpointRef('t', '', 'x'.repeat(64))).toBe(`lg/t//${'x'.repeat(64)}`);
    expect(() => checkpointRef('t', '', 'x'.repeat(250))).toThrow(/checkpoint_id must be at most 201 characters here/);
  });
});
