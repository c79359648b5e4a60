/**
 * A read-path check that stored text is already canonical, without building the canonical text.
 *
 * Every read verifies its payload; re-canonicalising would allocate the whole output again, while a
 * canonical text has a rigid shape that the tokens of {@link JsonReader} confirm one by one: no
 * whitespace, strings spelled as `json.dumps` spells them, numbers in canonical spelling, keys
 * strictly increasing by code point (which also excludes duplicates), no NaN/Infinity and no lone
 * surrogate. Anything else answers `false`, and callers fall back to the full canonicaliser to
 * explain why. A fast scan of the units (below) answers first for the usual text; the reader's
 * token walk decides whatever it passes on.
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

/*
 * The fast scan. Every stored payload is checked on every read, and the reader's token-by-token
 * walk (a method call, a state switch and a key slice per token) cost more than `JSON.parse` of
 * the same text: about 40 ns per token, 17 us for the eight rows of a 20-item `getItems` (Node 20;
 * docs/decisions/0006-cheaper-verified-read-path.md). Canonical text is compact and rigid, so one loop over its units with
 * an explicit stack confirms it; keys are compared in place, without slicing. The scan only ever
 * answers "canonical for sure": anything it does not handle itself (escaped or surrogate keys,
 * and every non-canonical text) goes to the reader-based check, which decides. So it can accept
 * nothing the reader refuses, and what it passes on costs one extra partial scan.
 */

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a, MINUS = 0x2d, DOT = 0x2e;
const OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, OPEN_BRACKET = 0x5b, CLOSE_BRACKET = 0x5d;

/** String content that needs no attention (the reader's own run): no quote, backslash, control or surrogate. */
const PLAIN_RUN = /[^"\\\u0000-\u001f\ud800-\udfff]*/y;

/** `keyStarts` entry of an open array (an open object holds its last key's start; it has one from its first member). */
const ARRAY = -1;
/**
 * Per open container: the span of the object's last key (content, quotes excluded), or ARRAY.
 * Scratch shared by every call (the scan is synchronous, never re-entered); grown to the deepest
 * text seen, within maxDepth.
 */
let keyStarts = new Int32Array(64);
let keyEnds = new Int32Array(64);

function isDigit(unit: number): boolean {
  return unit >= 0x30 && unit <= 0x39;
}

/**
 * The index after the closing quote of a string value whose content starts at `i`, when it is
 * spelled canonically (`json.dumps` with `ensure_ascii=False`: short escapes for `" \ \b \f \n
 * \r \t`, `\u00xx` in lowercase for the other C0 controls, everything else raw, surrogates only
 * in raw pairs); -1 otherwise.
 */
function canonicalStringEnd(text: string, i: number): number {
  for (;;) {
    PLAIN_RUN.lastIndex = i;
    PLAIN_RUN.test(text);
    i = PLAIN_RUN.lastIndex;
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) {
      const e = text.charCodeAt(i + 1);
      // " \ b f n r t
      if (e === QUOTE || e === BACKSLASH || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) i += 2;
      else if (e === 0x75 && text.charCodeAt(i + 2) === 0x30 && text.charCodeAt(i + 3) === 0x30) {
        const high = text.charCodeAt(i + 4);
        const low = text.charCodeAt(i + 5);
        const lowValue = isDigit(low) ? low - 0x30 : low >= 0x61 && low <= 0x66 ? low - 0x57 : -1;
        if (lowValue < 0 || (high !== 0x30 && high !== 0x31)) return -1;
        const unit = (high - 0x30) * 16 + lowValue;
        // Controls with a short escape are never written as \u00xx.
        if (unit === 0x08 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d) return -1;
        i += 6;
      } else return -1;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 2;
      else return -1;
    } else return -1; // a control, a lone low surrogate, or the end of the text
  }
}

/**
 * The index of the closing quote of a key whose content starts at `i`, when the key has no
 * escape, no control and no surrogate (so code unit order is code point order); -1 otherwise.
 */
function plainKeyEnd(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i;
    if (!(c >= 0x20) || c === BACKSLASH || (c >= 0xd800 && c <= 0xdfff)) return -1;
    i++;
  }
}

/** True when the key `text[start, end)` sorts strictly after `text[prevStart, prevEnd)` (code units). */
function keyFollows(text: string, prevStart: number, prevEnd: number, start: number, end: number): boolean {
  const prevLength = prevEnd - prevStart;
  const length = end - start;
  const shared = prevLength < length ? prevLength : length;
  for (let k = 0; k < shared; k++) {
    const a = text.charCodeAt(prevStart + k);
    const b = text.charCodeAt(start + k);
    if (a !== b) return b > a;
  }
  return length > prevLength;
}

/** The index after a canonically spelled number starting at `i`, or -1 (the reader's rules: any integer but `-0`; floats as Python's repr). */
function canonicalNumberEnd(text: string, i: number): number {
  const start = i;
  let c = text.charCodeAt(i);
  if (c === MINUS) c = text.charCodeAt(++i);
  if (c === 0x30) c = text.charCodeAt(++i);
  else if (c >= 0x31 && c <= 0x39) {
    do c = text.charCodeAt(++i);
    while (isDigit(c));
  } else return -1;
  if (c !== DOT && c !== 0x65 && c !== 0x45) {
    return i - start === 2 && text.charCodeAt(start) === MINUS && text.charCodeAt(start + 1) === 0x30 ? -1 : i; // `-0` is not canonical
  }
  if (c === DOT) {
    if (!isDigit(text.charCodeAt(i + 1))) return -1;
    i += 2;
    while (isDigit(text.charCodeAt(i))) i++;
    c = text.charCodeAt(i);
  }
  if (c === 0x65 || c === 0x45) {
    let j = i + 1;
    const sign = text.charCodeAt(j);
    if (sign === MINUS || sign === 0x2b) j++;
    if (!isDigit(text.charCodeAt(j))) return -1;
    do j++;
    while (isDigit(text.charCodeAt(j)));
    i = j;
  }
  const lexeme = text.slice(start, i);
  const value = Number(lexeme);
  return Number.isFinite(value) && formatPythonFloat(value) === lexeme ? i : -1;
}

/**
 * True only when `text` is certainly the canonical text of a JSON object within `maxDepth`;
 * false when it is not, or when this scan leaves the decision to the reader (see above).
 * Exported for the tests that hold it to the reader's answers.
 *
 * @example
 * ```ts
 * isCanonicalObjectTextFast('{"a":[1,2.5]}', 1000); // true
 * isCanonicalObjectTextFast('{"😀":1}', 1000);      // false: canonical, but left to the reader
 * ```
 */
export function isCanonicalObjectTextFast(text: string, maxDepth: number): boolean {
  if (text.charCodeAt(0) !== OPEN_BRACE) return false;
  const length = text.length;
  let i = 0;
  let depth = 0;
  for (;;) {
    // A value starts at i.
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = canonicalStringEnd(text, i + 1);
      if (i < 0) return false;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (depth >= maxDepth) return false;
      if (depth === keyStarts.length) {
        const starts = new Int32Array(depth * 2);
        const ends = new Int32Array(depth * 2);
        starts.set(keyStarts);
        ends.set(keyEnds);
        keyStarts = starts;
        keyEnds = ends;
      }
      i++;
      if (c === OPEN_BRACKET) {
        if (text.charCodeAt(i) === CLOSE_BRACKET) i++;
        else {
          keyStarts[depth++] = ARRAY;
          continue;
        }
      } else if (text.charCodeAt(i) === CLOSE_BRACE) i++;
      else {
        if (text.charCodeAt(i) !== QUOTE) return false;
        const end = plainKeyEnd(text, i + 1);
        if (end < 0 || text.charCodeAt(end + 1) !== COLON) return false;
        keyStarts[depth] = i + 1;
        keyEnds[depth++] = end;
        i = end + 2;
        continue;
      }
    } else if (c === MINUS || isDigit(c)) {
      i = canonicalNumberEnd(text, i);
      if (i < 0) return false;
    } else if (c === 0x6e && text.startsWith('null', i)) i += 4;
    else if (c === 0x74 && text.startsWith('true', i)) i += 4;
    else if (c === 0x66 && text.startsWith('false', i)) i += 5;
    else return false;
    // After a value: close containers, or a comma and the next value (or key and value).
    for (;;) {
      if (depth === 0) return i === length;
      const d = depth - 1;
      const keyStart = keyStarts[d] as number;
      const u = text.charCodeAt(i);
      if (u === COMMA) {
        i++;
        if (keyStart === ARRAY) break;
        if (text.charCodeAt(i) !== QUOTE) return false;
        const end = plainKeyEnd(text, i + 1);
        if (end < 0 || text.charCodeAt(end + 1) !== COLON) return false;
        if (!keyFollows(text, keyStart, keyEnds[d] as number, i + 1, end)) return false;
        keyStarts[d] = i + 1;
        keyEnds[d] = end;
        i = end + 2;
        break;
      }
      if (u !== (keyStart === ARRAY ? CLOSE_BRACKET : CLOSE_BRACE)) return false;
      i++;
      depth--;
    }
  }
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
  return isCanonicalObjectTextFast(text, maxDepth) || isCanonicalObjectTextByReader(text, maxDepth);
}

/**
 * The reader-based check: decides every text, including those the fast scan passes on.
 * Exported for the tests that hold the two to the same answers.
 *
 * @example
 * ```ts
 * isCanonicalObjectTextByReader('{"\\u00e9":1}', 1000); // false (an escape json.dumps would not write)
 * ```
 */
export function isCanonicalObjectTextByReader(text: string, maxDepth: number): boolean {
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
