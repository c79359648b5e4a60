/**
 * String escaping of the canonical form (Python `json.dumps(..., ensure_ascii=False)`):
 * `"` and `\` are escaped, `\b \t \n \f \r` get short escapes, the other C0 controls become
 * `\u00XX` (lowercase hex), and everything else, including `/`, U+007F, U+2028/2029 and U+FEFF, is
 * written raw. This is exactly what well-formed `JSON.stringify` does for a well-formed string, so
 * the native routine is used; only strings with lone surrogates (which `JSON.stringify` would turn
 * into `\udXXX` escapes, while Python keeps them raw and then fails) take the slow path.
 */

const SHORT_ESCAPES: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r', 34: '\\"', 92: '\\\\' };

/** The canonical escape for a unit that needs one, or undefined when the unit is written raw. */
function escapeUnit(unit: number): string | undefined {
  if (unit === 34 || unit === 92 || unit < 0x20) {
    return SHORT_ESCAPES[unit] ?? '\\u00' + (unit < 16 ? '0' : '') + unit.toString(16);
  }
  return undefined;
}

/** Hand-written escaper: keeps lone surrogates raw so the caller can report their position like Python. */
function escapeSlow(text: string): string {
  const parts: string[] = ['"'];
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const escaped = escapeUnit(text.charCodeAt(i));
    if (escaped === undefined) continue;
    if (i > runStart) parts.push(text.slice(runStart, i));
    parts.push(escaped);
    runStart = i + 1;
  }
  if (runStart < text.length) parts.push(text.slice(runStart));
  parts.push('"');
  return parts.join('');
}

/**
 * Returns the canonical JSON string literal for `text`, quotes included. Lone surrogates are kept
 * raw (the result is then not encodable as UTF-8); use {@link isWellFormed} to detect them.
 *
 * @example
 * ```ts
 * quoteJsonString('a"\u0001/'); // '"a\\"\\u0001/"'
 * ```
 */
export function quoteJsonString(text: string): string {
  return isWellFormed(text) ? JSON.stringify(text) : escapeSlow(text);
}

type WellFormedString = string & { isWellFormed?: () => boolean };
const nativeIsWellFormed = typeof (String.prototype as WellFormedString).isWellFormed === 'function';
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * True when `text` has no lone surrogate. Uses `String.prototype.isWellFormed` (constant time for
 * V8's one-byte strings) when the runtime has it.
 *
 * @example
 * ```ts
 * isWellFormed('😀');     // true
 * isWellFormed('\ud83d'); // false
 * ```
 */
export function isWellFormed(text: string): boolean {
  return nativeIsWellFormed ? (text as WellFormedString).isWellFormed!() : !LONE_SURROGATE.test(text);
}
