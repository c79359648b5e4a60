/**
 * A single-pass JSON reader that produces the canonical text directly, without building JS values.
 *
 * Why not `JSON.parse`: number lexemes must survive exactly (`12345678901234567890` stays as
 * written), duplicate keys and `__proto__` need Python's semantics, and the error messages must be
 * those of CPython's `json` module (C scanner of CPython 3.11), positions included. The grammar
 * accepted is CPython's: strict JSON plus the `NaN`, `Infinity` and `-Infinity` literals, which
 * Python parses and only its encoder rejects (reported here through {@link ScanResult.nonFinite}).
 *
 * Nesting is handled with an explicit stack, so deep input is a validation error, never a stack
 * overflow. Containers are emitted bottom-up: an array appends its items to a string, an object
 * collects its members and sorts them by key (code point order) when it closes.
 */
import { CheckpointValidationError } from '../errors.js';
import { isHighSurrogate, isLowSurrogate } from './code-points.js';
import { decodeError, depthMessage } from './decode-errors.js';
import { compareCodePoints } from './key-order.js';
import { formatPythonFloat } from './python-float.js';
import { quoteJsonString } from './string-escape.js';

/**
 * Outcome of {@link scanJson}. Errors that Python reports only after parsing (NaN/Infinity from
 * `json.dumps`, lone surrogates from the UTF-8 encoder) must only count when the offending value
 * survives duplicate-key elimination, so they are left in the text as markers that can never occur
 * in canonical output (raw control characters): {@link NON_FINITE_MARK} in place of the number,
 * {@link LONE_SURROGATE_MARK} right before each lone surrogate unit.
 */
export interface ScanResult {
  /** The canonical text; only meaningful when {@link findDeferredError} finds nothing. */
  json: string;
  /** True when the top-level value is an object. */
  topLevelObject: boolean;
  /** A non-finite number was read somewhere (it may have been dropped as a duplicate). */
  maybeNonFinite: boolean;
  /** A lone surrogate was read somewhere (it may have been dropped as a duplicate). */
  maybeLoneSurrogate: boolean;
}

/** Stands for a NaN/Infinity value in {@link ScanResult.json}. */
export const NON_FINITE_MARK = '\u0000';
/** Precedes each lone surrogate unit in {@link ScanResult.json}. */
export const LONE_SURROGATE_MARK = '\u0001';

/** Runs of string content that need no attention: no quote, backslash, control char or surrogate. */
const PLAIN_RUN = /[^"\\\u0000-\u001f\ud800-\udfff]*/y;

const SIMPLE_ESCAPES: Record<number, string> = {
  0x22: '"',
  0x5c: '\\',
  0x2f: '/',
  0x62: '\b',
  0x66: '\f',
  0x6e: '\n',
  0x72: '\r',
  0x74: '\t',
};

/** Value of one hex digit unit, or -1. */
function hexValue(unit: number): number {
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  if (unit >= 0x61 && unit <= 0x66) return unit - 0x57;
  if (unit >= 0x41 && unit <= 0x46) return unit - 0x37;
  return -1;
}

/** Value of the 4 hex digits at `start`, or -1 (CPython accepts both cases). */
function hex4(text: string, start: number): number {
  const a = hexValue(text.charCodeAt(start));
  const b = hexValue(text.charCodeAt(start + 1));
  const c = hexValue(text.charCodeAt(start + 2));
  const d = hexValue(text.charCodeAt(start + 3));
  return a < 0 || b < 0 || c < 0 || d < 0 ? -1 : (a << 12) | (b << 8) | (c << 4) | d;
}

function isDigit(unit: number): boolean {
  return unit >= 0x30 && unit <= 0x39;
}

/** An object being read: members in input order until it closes. */
interface ObjectFrame {
  readonly isObject: true;
  /** Decoded keys, parallel to `members`. */
  keys: string[];
  /** `"key":value` canonical texts. */
  members: string[];
  /** Keys so far are strictly increasing in code point order (then no sort and no dedup is needed). */
  ordered: boolean;
  /** Some key contains a surrogate: plain `<` no longer equals code point order. */
  surrogates: boolean;
  /** Decoded key and canonical key text of the member whose value is being read. */
  key: string;
  keyText: string;
}

/** An array being read: canonical items joined so far. */
interface ArrayFrame {
  readonly isObject: false;
  out: string;
  empty: boolean;
}

type Frame = ObjectFrame | ArrayFrame;

/** The canonical text of a finished object: sorted by key, last duplicate wins. */
function closeObject(frame: ObjectFrame): string {
  const { keys, members } = frame;
  const n = keys.length;
  if (frame.ordered) {
    // Concatenation builds a rope; `join` would copy the members, and copying again at every
    // enclosing level costs O(size x depth) for large nested content.
    let out = '{' + (members[0] as string);
    for (let k = 1; k < n; k++) out += ',' + (members[k] as string);
    return out + '}';
  }
  if (n <= 16 && !frame.surrogates) {
    // Stable insertion sort (strict `>`), several times faster than Array.prototype.sort for the
    // small objects that dominate payloads. Stability keeps duplicates in input order.
    for (let i = 1; i < n; i++) {
      const key = keys[i] as string;
      if (!((keys[i - 1] as string) > key)) continue;
      const member = members[i] as string;
      let j = i - 1;
      while (j >= 0 && (keys[j] as string) > key) {
        keys[j + 1] = keys[j] as string;
        members[j + 1] = members[j] as string;
        j--;
      }
      keys[j + 1] = key;
      members[j + 1] = member;
    }
  } else {
    const order = keys.map((_, index) => index);
    // Array.prototype.sort is stable, so equal keys keep input order.
    if (frame.surrogates) order.sort((a, b) => compareCodePoints(keys[a] as string, keys[b] as string));
    else order.sort((a, b) => ((keys[a] as string) < (keys[b] as string) ? -1 : (keys[a] as string) > (keys[b] as string) ? 1 : 0));
    const sortedKeys = order.map((index) => keys[index] as string);
    const sortedMembers = order.map((index) => members[index] as string);
    return emitSorted(sortedKeys, sortedMembers);
  }
  return emitSorted(keys, members);
}

/** Joins sorted members, keeping only the last of each run of equal keys (Python: last value wins). */
function emitSorted(keys: string[], members: string[]): string {
  const n = keys.length;
  let out = '{';
  let first = true;
  for (let k = 0; k < n; k++) {
    if (k + 1 < n && keys[k + 1] === keys[k]) continue;
    out += first ? (members[k] as string) : ',' + (members[k] as string);
    first = false;
  }
  return out + '}';
}

/** Reader state; one instance per call, fields instead of return objects to avoid allocations. */
class Scanner {
  readonly text: string;
  readonly length: number;
  readonly maxDepth: number;
  /** Current index (UTF-16 units). */
  i = 0;
  nonFinite = false;
  loneSurrogate = false;
  /** Results of the last {@link readString}. */
  decoded = '';
  quoted = '';
  hadSurrogate = false;

  constructor(text: string, maxDepth: number) {
    this.text = text;
    this.length = text.length;
    this.maxDepth = maxDepth;
  }

  skipWhitespace(): void {
    const { text, length } = this;
    let i = this.i;
    while (i < length) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      i++;
    }
    this.i = i;
  }

  fail(message: string, index: number): never {
    throw decodeError(message, this.text, index);
  }

  /**
   * Reads the string whose opening quote is at `this.i`; sets `quoted` (canonical literal) and, when
   * `wantDecoded`, `decoded`. Mirrors CPython's `scanstring_unicode` (strict mode) for errors.
   */
  readString(wantDecoded: boolean): void {
    const { text, length } = this;
    const quote = this.i;
    let runStart = quote + 1;
    PLAIN_RUN.lastIndex = runStart;
    PLAIN_RUN.test(text);
    let j = PLAIN_RUN.lastIndex;
    this.hadSurrogate = false;
    if (j < length && text.charCodeAt(j) === 0x22) {
      // Fast path: nothing to decode or escape, the input slice is already canonical.
      if (wantDecoded) this.decoded = text.slice(runStart, j);
      this.quoted = text.slice(quote, j + 1);
      this.i = j + 1;
      return;
    }
    const parts: string[] = [];
    /** Indexes in `parts` of lone surrogate units (they get a marker in the quoted text). */
    const lone: number[] = [];
    for (;;) {
      if (j > runStart) parts.push(text.slice(runStart, j));
      if (j >= length) this.fail('Unterminated string starting at', quote);
      const c = text.charCodeAt(j);
      if (c === 0x22) break;
      if (c < 0x20) this.fail('Invalid control character at', j);
      if (c === 0x5c) {
        j = this.readEscape(j, quote, parts, lone);
      } else {
        // A raw surrogate: fine as part of a pair, lone otherwise.
        this.hadSurrogate = true;
        if (isHighSurrogate(c) && j + 1 < length && isLowSurrogate(text.charCodeAt(j + 1))) {
          parts.push(text.slice(j, j + 2));
          j += 2;
        } else {
          lone.push(parts.length);
          parts.push(text[j] as string);
          j++;
        }
      }
      runStart = j;
      PLAIN_RUN.lastIndex = j;
      PLAIN_RUN.test(text);
      j = PLAIN_RUN.lastIndex;
    }
    const decoded = parts.join('');
    this.decoded = decoded;
    if (lone.length === 0) this.quoted = quoteJsonString(decoded);
    else {
      this.loneSurrogate = true;
      for (const index of lone) parts[index] = LONE_SURROGATE_MARK + (parts[index] as string);
      // Escaping is per unit, so escaping the parts one by one equals escaping the whole string.
      this.quoted = '"' + parts.map((part, index) => (lone.includes(index) ? part : quoteJsonString(part).slice(1, -1))).join('') + '"';
    }
    this.i = j + 1;
  }

  /** Decodes the escape whose backslash is at `j`; returns the index after it. */
  private readEscape(j: number, quote: number, parts: string[], lone: number[]): number {
    const { text, length } = this;
    const next = j + 1;
    if (next >= length) this.fail('Unterminated string starting at', quote);
    const e = text.charCodeAt(next);
    if (e !== 0x75 /* u */) {
      const simple = SIMPLE_ESCAPES[e];
      if (simple === undefined) this.fail('Invalid \\escape', j);
      parts.push(simple);
      return next + 1;
    }
    const end = next + 5; // after the 4 hex digits
    if (end >= length) this.fail('Invalid \\uXXXX escape', next);
    const unit = hex4(text, next + 1);
    if (unit < 0) this.fail('Invalid \\uXXXX escape', next);
    if (unit >= 0xd800 && unit <= 0xdfff) {
      this.hadSurrogate = true;
      // CPython joins `\uD8xx\uDCxx` only when both are escapes; otherwise the unit stays lone.
      if (isHighSurrogate(unit) && end + 6 < length && text.charCodeAt(end) === 0x5c && text.charCodeAt(end + 1) === 0x75) {
        const low = hex4(text, end + 2);
        if (low < 0) this.fail('Invalid \\uXXXX escape', end + 1);
        if (isLowSurrogate(low)) {
          parts.push(String.fromCharCode(unit, low));
          return end + 6;
        }
      }
      lone.push(parts.length);
    }
    parts.push(String.fromCharCode(unit));
    return end;
  }

  /** Reads a number, `NaN`, `Infinity` or `-Infinity` at `this.i`; returns its canonical text. */
  readNumber(): string {
    const { text, length } = this;
    const start = this.i;
    let i = start;
    let c = text.charCodeAt(i);
    if (c === 0x2d /* - */) {
      if (text.startsWith('-Infinity', i)) {
        this.nonFinite = true;
        this.i = i + 9;
        return NON_FINITE_MARK;
      }
      i++;
      if (i >= length) this.fail('Expecting value', start);
      c = text.charCodeAt(i);
    }
    if (c >= 0x31 && c <= 0x39) {
      i++;
      while (i < length && isDigit(text.charCodeAt(i))) i++;
    } else if (c === 0x30) {
      i++;
    } else {
      this.fail('Expecting value', start);
    }
    let isFloat = false;
    if (i < length - 1 && text.charCodeAt(i) === 0x2e && isDigit(text.charCodeAt(i + 1))) {
      isFloat = true;
      i += 2;
      while (i < length && isDigit(text.charCodeAt(i))) i++;
    }
    if (i < length - 1 && (text.charCodeAt(i) | 0x20) === 0x65 /* e or E */) {
      const eStart = i;
      i++;
      if (i < length - 1 && (text.charCodeAt(i) === 0x2d || text.charCodeAt(i) === 0x2b)) i++;
      while (i < length && isDigit(text.charCodeAt(i))) i++;
      if (isDigit(text.charCodeAt(i - 1))) isFloat = true;
      else i = eStart;
    }
    this.i = i;
    const lexeme = text.slice(start, i);
    if (!isFloat) return lexeme === '-0' ? '0' : lexeme;
    const value = Number(lexeme);
    if (!Number.isFinite(value)) {
      this.nonFinite = true;
      return NON_FINITE_MARK;
    }
    return formatPythonFloat(value);
  }

  /** Depth check before opening a container; `depth` counts the containers already open. */
  checkDepth(depth: number): void {
    if (depth >= this.maxDepth) throw new CheckpointValidationError(depthMessage(this.maxDepth));
  }

  /** Reads the key string at `this.i` (already known to be a quote) and the `:` after it. */
  readKey(frame: ObjectFrame): void {
    this.readString(true);
    const key = this.decoded;
    if (this.hadSurrogate) {
      frame.surrogates = true;
      frame.ordered = false;
    }
    if (frame.ordered && frame.keys.length > 0 && !((frame.keys[frame.keys.length - 1] as string) < key)) frame.ordered = false;
    frame.key = key;
    frame.keyText = this.quoted;
    this.skipWhitespace();
    if (this.i >= this.length || this.text.charCodeAt(this.i) !== 0x3a) this.fail("Expecting ':' delimiter", this.i);
    this.i++;
    this.skipWhitespace();
  }
}

/**
 * Reads `text` as CPython's `json.loads` would and returns the canonical text plus the conditions
 * that Python reports only later (non-finite floats, lone surrogates, top-level type).
 *
 * @throws CheckpointValidationError with CPython's `JSONDecodeError` message for syntax errors, or
 *   the depth message when nesting exceeds `maxDepth`.
 * @example
 * ```ts
 * scanJson('{"b":1,"a":1.50}', 1000).json; // '{"a":1.5,"b":1}'
 * ```
 */
export function scanJson(text: string, maxDepth: number): ScanResult {
  const s: Scanner = new Scanner(text, maxDepth);
  const length = text.length;
  if (text.charCodeAt(0) === 0xfeff) s.fail('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
  s.skipWhitespace();
  const stack: Frame[] = [];
  // Frames are pooled by depth: a frame is reused only after its container has closed.
  const objectPool: ObjectFrame[] = [];
  const arrayPool: ArrayFrame[] = [];
  const topLevelObject = text.charCodeAt(s.i) === 0x7b;
  let value: string;
  for (;;) {
    // Read one value at s.i (whitespace already skipped). Containers push a frame and loop.
    const c = text.charCodeAt(s.i);
    if (c === 0x22) {
      s.readString(false);
      value = s.quoted;
    } else if (c === 0x7b /* { */) {
      s.checkDepth(stack.length);
      s.i++;
      s.skipWhitespace();
      if (text.charCodeAt(s.i) === 0x7d) {
        s.i++;
        value = '{}';
      } else {
        if (s.i >= length || text.charCodeAt(s.i) !== 0x22) s.fail('Expecting property name enclosed in double quotes', s.i);
        let frame = objectPool[stack.length];
        if (frame === undefined) {
          frame = { isObject: true, keys: [], members: [], ordered: true, surrogates: false, key: '', keyText: '' };
          objectPool[stack.length] = frame;
        } else {
          frame.keys.length = 0;
          frame.members.length = 0;
          frame.ordered = true;
          frame.surrogates = false;
        }
        stack.push(frame);
        s.readKey(frame);
        continue;
      }
    } else if (c === 0x5b /* [ */) {
      s.checkDepth(stack.length);
      s.i++;
      s.skipWhitespace();
      if (text.charCodeAt(s.i) === 0x5d) {
        s.i++;
        value = '[]';
      } else {
        let frame = arrayPool[stack.length];
        if (frame === undefined) {
          frame = { isObject: false, out: '', empty: true };
          arrayPool[stack.length] = frame;
        } else {
          frame.out = '';
          frame.empty = true;
        }
        stack.push(frame);
        continue;
      }
    } else if (c === 0x6e && text.startsWith('null', s.i)) {
      s.i += 4;
      value = 'null';
    } else if (c === 0x74 && text.startsWith('true', s.i)) {
      s.i += 4;
      value = 'true';
    } else if (c === 0x66 && text.startsWith('false', s.i)) {
      s.i += 5;
      value = 'false';
    } else if (c === 0x4e && text.startsWith('NaN', s.i)) {
      s.i += 3;
      s.nonFinite = true;
      value = NON_FINITE_MARK;
    } else if (c === 0x49 && text.startsWith('Infinity', s.i)) {
      s.i += 8;
      s.nonFinite = true;
      value = NON_FINITE_MARK;
    } else if (c === 0x2d || isDigit(c)) {
      value = s.readNumber();
    } else {
      s.fail('Expecting value', s.i);
    }

    // Attach the finished value to its container; close containers as long as they end here.
    for (;;) {
      const frame = stack[stack.length - 1];
      if (frame === undefined) {
        s.skipWhitespace();
        if (s.i !== length) s.fail('Extra data', s.i);
        return {
          json: value,
          topLevelObject,
          maybeNonFinite: s.nonFinite,
          maybeLoneSurrogate: s.loneSurrogate,
        };
      }
      s.skipWhitespace();
      const d = text.charCodeAt(s.i);
      if (frame.isObject) {
        frame.keys.push(frame.key);
        frame.members.push(frame.keyText + ':' + value);
        if (d === 0x7d /* } */) {
          s.i++;
          stack.pop();
          value = closeObject(frame);
          continue;
        }
        if (d !== 0x2c) s.fail("Expecting ',' delimiter", s.i);
        s.i++;
        s.skipWhitespace();
        if (text.charCodeAt(s.i) !== 0x22) s.fail('Expecting property name enclosed in double quotes', s.i);
        s.readKey(frame);
        break;
      }
      if (frame.empty) {
        frame.out = value;
        frame.empty = false;
      } else {
        frame.out += ',' + value;
      }
      if (d === 0x5d /* ] */) {
        s.i++;
        stack.pop();
        value = '[' + frame.out + ']';
        continue;
      }
      if (d !== 0x2c) s.fail("Expecting ',' delimiter", s.i);
      s.i++;
      s.skipWhitespace();
      break;
    }
  }
}
