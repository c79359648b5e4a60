import { describe, expect, it } from 'vitest';
import { pythonRepr } from './repr.js';

/** `repr(s)` from CPython 3.11.7. */
const CASES: Array<[string, string]> = JSON.parse(
  `[["legacy:1", "'legacy:1'"], ["it's", "\\"it's\\""], ["say \\"hi\\"", "'say \\"hi\\"'"], ["both ' and \\"", "'both \\\\' and \\"'"], ["back\\\\slash", "'back\\\\\\\\slash'"], ["tab\\there", "'tab\\\\there'"], ["del\\u007f", "'del\\\\x7f'"], ["nbsp\\u00a0x", "'nbsp\\\\xa0x'"], ["emoji 😀", "'emoji 😀'"], ["é", "'é'"], ["\\u2028", "'\\\\u2028'"], ["\\u200b", "'\\\\u200b'"], ["\\ue000", "'\\\\ue000'"], ["\\udb80\\udc00", "'\\\\U000f0000'"], ["ｆｕｌｌ", "'ｆｕｌｌ'"], ["\\u00ad", "'\\\\xad'"], ["a b", "'a b'"]]`,
) as Array<[string, string]>;

describe('pythonRepr', () => {
  it.each(CASES)('%j -> %s', (input, expected) => {
    expect(pythonRepr(input)).toBe(expected);
  });
});
