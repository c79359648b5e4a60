/**
 * Object key order: Python sorts `str` keys by Unicode code point. JavaScript's default string
 * comparison is by UTF-16 unit, which agrees except when, at the first difference, one key has a
 * surrogate (an astral character) and the other a unit in U+E000–U+FFFF: `"！"` (U+FF01) must sort
 * before `"😀"` (U+1F600, units D83D DE00). Plain `<` is much faster, so the canonical writer uses
 * it unless the tokenizer flagged a key as holding a surrogate; {@link compareCodePoints} is the
 * exact order, also used for source_ref ranges.
 */

/**
 * Rank of the unit at the first difference between two strings, for code point comparison:
 * 3 = the low half of a pair (the other string's identical high unit before it is then lone, a
 * smaller code point), 2 = the high half of a pair (an astral code point), 1 = anything else,
 * including a lone surrogate, which Python orders by its own value U+D800–U+DFFF.
 */
function rank(text: string, index: number, unit: number): number {
  if (unit >= 0xdc00 && unit <= 0xdfff) {
    const prev = text.charCodeAt(index - 1);
    return prev >= 0xd800 && prev <= 0xdbff ? 3 : 1;
  }
  if (unit >= 0xd800 && unit <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return 1;
}

/**
 * Compares two strings by Unicode code point (Python `str` order), lone surrogates included.
 *
 * @example
 * ```ts
 * compareCodePoints('\uff01', '😀'); // -1 (JS `<` says the opposite)
 * ```
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0xd800 && y < 0xd800) return x < y ? -1 : 1;
    const rx = rank(a, i, x);
    const ry = rank(b, i, y);
    if (rx !== ry) return rx < ry ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
