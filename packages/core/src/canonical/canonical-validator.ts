/**
 * A read-path check that stored text is already canonical, without building the canonical text.
 *
 * Every read verifies its payload; re-canonicalising would allocate the whole output again, while a
 * canonical text has a rigid shape that the tokens of {@link JsonReader} confirm one by one: no
 * whitespace, strings spelled as `json.dumps` spells them, numbers in canonical spelling, keys
 * strictly increasing by code point (which also excludes duplicates), no NaN/Infinity and no lone
 * surrogate. Anything else answers `false`, and callers fall back to the full canonicaliser to
 * explain why.
 */
import { depthMessage } from './decode-errors.js';
import { BEGIN_ARRAY, BEGIN_OBJECT, END, ESCAPED, JsonReader, KEY, LONE, NON_FINITE, NUMBER, STRING, SURROGATE } from './json-reader.js';
import { compareCodePoints } from './key-order.js';
import { formatPythonFloat } from '../python/float-repr.js';

/** True when the number token of `r` is spelled canonically. */
function isCanonicalNumber(r: JsonReader): boolean {
  const { text, start, end } = r;
  // Any integer the grammar accepts is canonical except `-0` (checked without slicing: numbers
  // are the most frequent token of many payloads).
  if (!r.isFloat) return !(end - start === 2 && text.charCodeAt(start) === 0x2d && text.charCodeAt(start + 1) === 0x30);
  const lexeme = text.slice(start, end);
  const value = Number(lexeme);
  return Number.isFinite(value) && formatPythonFloat(value) === lexeme;
}

/** True when the string or key token of `r` is spelled as `json.dumps` spells it. */
function isCanonicalString(r: JsonReader): boolean {
  if ((r.flags & LONE) !== 0) return false;
  // Raw text without escapes is canonical (the reader refused raw control characters).
  if ((r.flags & ESCAPED) === 0) return true;
  return r.canonicalString('') === r.text.slice(r.start, r.end);
}

/**
 * True when `text` is exactly the canonical form of a JSON object nested at most `maxDepth` deep,
 * i.e. `canonicalizeJson(text) === text` and the top level is an object, with no NaN/Infinity and
 * no lone surrogates. Never throws.
 *
 * @example
 * ```ts
 * isCanonicalObjectText('{"a":1,"b":[1.0]}', 1000); // true
 * isCanonicalObjectText('{"b":1,"a":2}', 1000);     // false (keys out of order)
 * ```
 */
export function isCanonicalObjectText(text: string, maxDepth: number): boolean {
  // Also refuses a leading BOM or whitespace before the reader sees them.
  if (text.charCodeAt(0) !== 0x7b) return false;
  /** Per open object: whether no key was read yet, the previous key and whether it had a surrogate. */
  const firstKey: boolean[] = [];
  const lastKey: string[] = [];
  const lastKeySurrogate: boolean[] = [];
  try {
    // Compact: whitespace anywhere is a syntax error, caught below.
    const r = new JsonReader(text, maxDepth, depthMessage, true);
    for (;;) {
      switch (r.next()) {
        case BEGIN_OBJECT:
          firstKey[r.depth - 1] = true;
          break;
        case BEGIN_ARRAY:
          break;
        case KEY: {
          if (!isCanonicalString(r)) return false;
          const d = r.depth - 1;
          const key = r.stringValue();
          const surrogate = (r.flags & SURROGATE) !== 0;
          if (firstKey[d] === true) firstKey[d] = false;
          else {
            const prev = lastKey[d] as string;
            if (!(surrogate || lastKeySurrogate[d] === true ? compareCodePoints(prev, key) < 0 : prev < key)) return false;
          }
          lastKey[d] = key;
          lastKeySurrogate[d] = surrogate;
          break;
        }
        case STRING:
          if (!isCanonicalString(r)) return false;
          break;
        case NUMBER:
          if (!isCanonicalNumber(r)) return false;
          break;
        case NON_FINITE:
          return false;
        case END:
          return true;
        default:
          // END_OBJECT, END_ARRAY, true, false, null: canonical as read.
          break;
      }
    }
  } catch {
    // A syntax or depth error: not canonical (the caller's full parse says why).
    return false;
  }
}
