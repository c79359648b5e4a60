/**
 * UTF-16 / code-point helpers. JavaScript strings are UTF-16, while Python (whose output we must
 * reproduce byte for byte) reasons in code points: positions in error messages and the key order
 * both have to be translated.
 */

/**
 * True for a high (leading) surrogate unit (U+D800–U+DBFF).
 *
 * @example
 * ```ts
 * isHighSurrogate('😀'.charCodeAt(0)); // true
 * ```
 */
export function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/**
 * True for a low (trailing) surrogate unit (U+DC00–U+DFFF).
 *
 * @example
 * ```ts
 * isLowSurrogate('😀'.charCodeAt(1)); // true
 * ```
 */
export function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * Number of code points in `text.slice(0, end)`: a well-formed surrogate pair counts once, a lone
 * surrogate counts once (as Python would see it). Only used to build error messages, so a plain
 * loop is fine.
 *
 * @example
 * ```ts
 * codePointOffset('😀x', 2); // 1
 * ```
 */
export function codePointOffset(text: string, end: number): number {
  let count = 0;
  for (let i = 0; i < end; i++) {
    const unit = text.charCodeAt(i);
    if (isHighSurrogate(unit) && i + 1 < end && isLowSurrogate(text.charCodeAt(i + 1))) i++;
    count++;
  }
  return count;
}

/**
 * Index of the first lone surrogate unit in `text` (from `start`), or -1 when the string is
 * well-formed UTF-16.
 *
 * @example
 * ```ts
 * findLoneSurrogate('a\ud800'); // 1
 * findLoneSurrogate('😀');      // -1
 * ```
 */
export function findLoneSurrogate(text: string, start = 0): number {
  for (let i = start; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      i++;
      continue;
    }
    return i;
  }
  return -1;
}

/**
 * `\udXXX`-style rendering of one UTF-16 unit, as Python prints it in `repr`.
 *
 * @example
 * ```ts
 * unitEscape(0xd800); // '\\ud800'
 * ```
 */
export function unitEscape(unit: number): string {
  return '\\u' + unit.toString(16).padStart(4, '0');
}
