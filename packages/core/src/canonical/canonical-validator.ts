/**
 * A read-path check that stored text is already canonical, without building the canonical text.
 *
 * Every read verifies its payload; re-canonicalising would allocate the whole output again, while a
 * canonical text has a rigid shape that a single scan can confirm: no whitespace, strings with only
 * the canonical escapes, numbers in canonical spelling, keys strictly increasing by code point
 * (which also excludes duplicates). Anything else answers `false`, and callers fall back to the
 * full canonicaliser to explain why.
 */
import { isHighSurrogate, isLowSurrogate } from './code-points.js';
import { compareCodePoints } from './key-order.js';
import { formatPythonFloat } from './python-float.js';

/** Plain string content: no quote, backslash, control char or surrogate. */
const PLAIN_RUN = /[^"\\\u0000-\u001f\ud800-\udfff]*/y;

/** Units allowed after a backslash besides `u`: `" \ b t n f r` (never `/`, which is written raw). */
function isShortEscape(unit: number): boolean {
  return unit === 0x22 || unit === 0x5c || unit === 0x62 || unit === 0x74 || unit === 0x6e || unit === 0x66 || unit === 0x72;
}

function isLowerHex(unit: number): boolean {
  return (unit >= 0x30 && unit <= 0x39) || (unit >= 0x61 && unit <= 0x66);
}

function isDigit(unit: number): boolean {
  return unit >= 0x30 && unit <= 0x39;
}

/** Decodes the canonical escapes of a key (only called for keys that contain a backslash). */
function decodeCanonicalKey(raw: string): string {
  return raw.replace(/\\(u00[0-9a-f]{2}|.)/g, (_, esc: string) => {
    if (esc.length === 5) return String.fromCharCode(parseInt(esc.slice(3), 16));
    switch (esc) {
      case 'b':
        return '\b';
      case 't':
        return '\t';
      case 'n':
        return '\n';
      case 'f':
        return '\f';
      case 'r':
        return '\r';
      default:
        return esc;
    }
  });
}

class Validator {
  readonly text: string;
  readonly length: number;
  /** Set by {@link stringEnd}. */
  hadEscape = false;
  hadSurrogate = false;

  constructor(text: string) {
    this.text = text;
    this.length = text.length;
  }

  /** Index after the canonical string literal whose quote is at `i`, or -1. */
  stringEnd(i: number): number {
    const { text, length } = this;
    this.hadEscape = false;
    this.hadSurrogate = false;
    let j = i + 1;
    for (;;) {
      PLAIN_RUN.lastIndex = j;
      PLAIN_RUN.test(text);
      j = PLAIN_RUN.lastIndex;
      if (j >= length) return -1;
      const c = text.charCodeAt(j);
      if (c === 0x22) return j + 1;
      if (c === 0x5c) {
        this.hadEscape = true;
        const e = text.charCodeAt(j + 1);
        if (isShortEscape(e)) {
          j += 2;
          continue;
        }
        // `\u00XX` only for the controls without a short escape, in lowercase hex.
        if (e !== 0x75 || text.charCodeAt(j + 2) !== 0x30 || text.charCodeAt(j + 3) !== 0x30) return -1;
        const h = text.charCodeAt(j + 4);
        const l = text.charCodeAt(j + 5);
        if ((h !== 0x30 && h !== 0x31) || !isLowerHex(l)) return -1;
        const unit = parseInt(text.slice(j + 4, j + 6), 16);
        if (unit === 8 || unit === 9 || unit === 10 || unit === 12 || unit === 13) return -1;
        j += 6;
        continue;
      }
      if (c < 0x20) return -1;
      // A surrogate: only a well-formed pair is acceptable.
      if (!isHighSurrogate(c) || !isLowSurrogate(text.charCodeAt(j + 1))) return -1;
      this.hadSurrogate = true;
      j += 2;
    }
  }

  /** Index after the canonical number starting at `i`, or -1. */
  numberEnd(i: number): number {
    const { text, length } = this;
    const start = i;
    if (text.charCodeAt(i) === 0x2d) i++;
    const first = text.charCodeAt(i);
    if (first === 0x30) i++;
    else if (first >= 0x31 && first <= 0x39) {
      i++;
      while (i < length && isDigit(text.charCodeAt(i))) i++;
    } else return -1;
    const c = text.charCodeAt(i);
    if (c !== 0x2e && c !== 0x65 && c !== 0x45) {
      // An integer: any spelling that passed the grammar above is canonical, except `-0`.
      return first === 0x30 && i === start + 2 ? -1 : i;
    }
    while (i < length) {
      const d = text.charCodeAt(i);
      if (isDigit(d) || d === 0x2e || d === 0x65 || d === 0x2b || d === 0x2d) i++;
      else break;
    }
    const lexeme = text.slice(start, i);
    const value = Number(lexeme);
    return Number.isFinite(value) && formatPythonFloat(value) === lexeme ? i : -1;
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
  const length = text.length;
  if (text.charCodeAt(0) !== 0x7b) return false;
  const v = new Validator(text);
  /** Per open container: true for an object. */
  const isObject: boolean[] = [];
  /** Per open object: the previous key and whether it contains a surrogate. */
  const lastKey: string[] = [];
  const lastKeySurrogate: boolean[] = [];
  let depth = 0;
  let i = 0;

  /** Reads a key at `i` (must be a quote), checks its order and the colon; returns the value index or -1. */
  const readKey = (first: boolean): number => {
    if (text.charCodeAt(i) !== 0x22) return -1;
    const end = v.stringEnd(i);
    if (end < 0) return -1;
    const raw = text.slice(i + 1, end - 1);
    const key = v.hadEscape ? decodeCanonicalKey(raw) : raw;
    const d = depth - 1;
    if (!first) {
      const prev = lastKey[d] as string;
      const ordered = v.hadSurrogate || lastKeySurrogate[d] ? compareCodePoints(prev, key) < 0 : prev < key;
      if (!ordered) return -1;
    }
    lastKey[d] = key;
    lastKeySurrogate[d] = v.hadSurrogate;
    if (text.charCodeAt(end) !== 0x3a) return -1;
    return end + 1;
  };

  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      if (depth >= maxDepth) return false;
      const close = c === 0x7b ? 0x7d : 0x5d;
      if (text.charCodeAt(i + 1) === close) {
        i += 2;
      } else {
        isObject[depth] = c === 0x7b;
        depth++;
        i++;
        if (c === 0x7b) {
          i = readKey(true);
          if (i < 0) return false;
        }
        continue;
      }
    } else if (c === 0x22) {
      i = v.stringEnd(i);
      if (i < 0) return false;
    } else if (c === 0x2d || isDigit(c)) {
      i = v.numberEnd(i);
      if (i < 0) return false;
    } else if (c === 0x74 && text.startsWith('true', i)) i += 4;
    else if (c === 0x66 && text.startsWith('false', i)) i += 5;
    else if (c === 0x6e && text.startsWith('null', i)) i += 4;
    else return false;

    // After a value: a comma continues the container, its bracket closes it.
    for (;;) {
      if (depth === 0) return i === length;
      const object = isObject[depth - 1] as boolean;
      const d = text.charCodeAt(i);
      if (d === 0x2c) {
        i++;
        if (object) {
          i = readKey(false);
          if (i < 0) return false;
        }
        break;
      }
      if (d !== (object ? 0x7d : 0x5d)) return false;
      i++;
      depth--;
    }
  }
}
