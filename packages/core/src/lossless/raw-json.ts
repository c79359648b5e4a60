/**
 * Pre-serialised JSON embedded verbatim by {@link formatPythonJson}. Payloads travel as their
 * canonical text and must never pass through a JavaScript number (`1.0` would become `1`,
 * `12345678901234567890` would lose digits), so the formatter re-indents their text token by
 * token instead of parsing it.
 */

/** Registry-wide brand, so that two installed copies of core recognise each other's values. */
const RAW_JSON: unique symbol = Symbol.for('session-checkpoint.raw-json') as never;

/**
 * JSON text to embed as is (re-indented, never re-parsed). The text must be valid JSON; it is not
 * checked here, because it normally is a stored canonical payload that was verified on read.
 *
 * @example
 * ```ts
 * formatPythonJson({ payload: new RawJson('{"n":1.0}') });
 * // '{\n  "payload": {\n    "n": 1.0\n  }\n}'
 * ```
 */
export class RawJson {
  /** Brand read by {@link isRawJson}. */
  readonly [RAW_JSON] = true;
  /** The JSON text, exactly as given. */
  readonly text: string;

  constructor(text: string) {
    if (typeof text !== 'string') throw new TypeError('RawJson text must be a string');
    this.text = text;
  }

  /** The text, so that a `RawJson` in a template literal prints its JSON. */
  toString(): string {
    return this.text;
  }
}

/** True for a {@link RawJson} from any installed copy of core. */
export function isRawJson(value: unknown): value is RawJson {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[RAW_JSON] === true;
}

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;
const OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, OPEN_BRACKET = 0x5b, CLOSE_BRACKET = 0x5d;
const SPACE = 0x20, TAB = 0x09, LF = 0x0a, CR = 0x0d;

function isWhitespace(c: number): boolean {
  return c === SPACE || c === LF || c === CR || c === TAB;
}

function isStructural(c: number): boolean {
  return c === QUOTE || c === COMMA || c === COLON || c === OPEN_BRACE || c === CLOSE_BRACE || c === OPEN_BRACKET || c === CLOSE_BRACKET;
}

/**
 * Appends `text` (valid JSON, any whitespace) to `out` in Python's `indent` layout, as if the
 * value sat at nesting `level`. Strings and number lexemes are copied untouched; whitespace
 * outside strings is dropped. Iterative: any depth is fine.
 *
 * @param newline Returns `"\n"` plus the indentation of a nesting level.
 */
export function appendReindented(text: string, level: number, newline: (level: number) => string, out: string[]): void {
  const n = text.length;
  let depth = level;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let close = text.indexOf('"', i + 1);
      // A quote preceded by an odd number of backslashes is escaped: keep looking.
      for (;;) {
        if (close === -1) throw new TypeError('RawJson text has an unterminated string');
        let backslashes = 0;
        while (text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
        if (backslashes % 2 === 0) break;
        close = text.indexOf('"', close + 1);
      }
      out.push(text.slice(i, close + 1));
      i = close + 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      let j = i + 1;
      while (j < n && isWhitespace(text.charCodeAt(j))) j++;
      const closer = c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
      if (text.charCodeAt(j) === closer) {
        out.push(c === OPEN_BRACE ? '{}' : '[]');
        i = j + 1;
      } else {
        depth++;
        out.push(c === OPEN_BRACE ? '{' : '[', newline(depth));
        i = j;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      out.push(newline(depth), c === CLOSE_BRACE ? '}' : ']');
      i++;
    } else if (c === COMMA) {
      out.push(',', newline(depth));
      i++;
    } else if (c === COLON) {
      out.push(': ');
      i++;
    } else if (isWhitespace(c)) {
      i++;
    } else {
      let j = i + 1;
      while (j < n && !isStructural(text.charCodeAt(j)) && !isWhitespace(text.charCodeAt(j))) j++;
      out.push(text.slice(i, j));
      i = j;
    }
  }
}
