import { describe, expect, it } from 'vitest';
import { macInput } from './mac-input.js';

const hex = (fields: Parameters<typeof macInput>[0]) => Buffer.from(macInput(fields)).toString('hex');

describe('macInput', () => {
  it('length-prefixes every field, so no two lists of fields share an encoding', () => {
    const lists: Parameters<typeof macInput>[0][] = [
      ['a:b', 'c'],
      ['a', 'b:c'],
      ['ab', ''],
      ['a', 'b'],
      ['', 'ab'],
      ['ab'],
      [null],
      [''],
      ['', null],
      [null, ''],
      ['\u0000', ''],
      [Uint8Array.of(0, 0, 0, 1), 'x'],
      [12],
      ['12'.concat('')],
    ];
    const encodings = lists.map(hex);
    // 12 and '12' are the same field value by design (a field's type is fixed by its position).
    expect(new Set(encodings.slice(0, -2)).size).toBe(lists.length - 2);
    expect(hex([12])).toBe(hex(['12']));
    expect(hex(['é'])).toBe('00000002c3a9');
    expect(hex([null])).toBe('ffffffff');
  });
});
