/**
 * The canonical writer: consumes the tokens of {@link JsonReader} and produces the canonical text
 * directly, without building JS values.
 *
 * Why not `JSON.parse`: number lexemes must survive exactly (`12345678901234567890` stays as
 * written), duplicate keys and `__proto__` need Python's semantics, and errors must be those of
 * CPython's `json` module (the reader raises them). NaN/Infinity, which Python parses and only its
 * encoder rejects, are reported through {@link ScanResult.maybeNonFinite}.
 *
 * Containers are emitted bottom-up: an array appends its items to a string, an object collects
 * its members and sorts them by key (code point order) when it closes.
 */
import { depthMessage } from './decode-errors.js';
import {
  BEGIN_ARRAY,
  BEGIN_OBJECT,
  END,
  ESCAPED,
  END_ARRAY,
  END_OBJECT,
  FALSE,
  JsonReader,
  KEY,
  LONE,
  NON_FINITE,
  NULL,
  NUMBER,
  STRING,
  SURROGATE,
  TRUE,
} from './json-reader.js';
import { compareCodePoints } from './key-order.js';
import { formatPythonFloat } from '../python/float-repr.js';

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

/*
 * Verbatim tracking. Input that is already canonical in places (stored payloads, `JSON.stringify`
 * output of sorted data, untouched sub-objects) needs no rebuilding there: a value whose source
 * text is its canonical text is "verbatim", and a container of verbatim values without whitespace
 * and with ordered keys is verbatim too, emitted as one slice of the input. A member whose value
 * is verbatim is one slice as well (`"key":value`), not three pieces joined.
 * It pays on canonical input: canonicalPayloadFromJson of a 1 MB canonical agent state took 3.6 ms
 * of CPU against 5.0 ms before (tools/bench row "canonicalizeJson (canonical text)"), and it is
 * neutral on the bench's unsorted `JSON.stringify` text (5.5-5.8 ms either way).
 */

/** Fields shared by both frames: the container's span so far, for verbatim emission. */
interface FrameSpan {
  /** Index of the opening brace or bracket. */
  start: number;
  /** End of the last member or item read, or `start` before the first. */
  lastEnd: number;
  /** Everything read so far is verbatim and contiguous (no whitespace). */
  verbatim: boolean;
}

/** An object being read: members in input order until it closes. */
interface ObjectFrame extends FrameSpan {
  readonly isObject: true;
  /** Decoded keys, parallel to `members`. */
  keys: string[];
  /** `"key":value` canonical texts. */
  members: string[];
  /** Keys so far are strictly increasing in code point order (then no sort and no dedup is needed). */
  ordered: boolean;
  /** Some key contains a surrogate: plain `<` no longer equals code point order. */
  surrogates: boolean;
  /** Some key holds a lone surrogate: `keys` then hold {@link pythonKey}s. */
  lone: boolean;
  /** Decoded key and canonical key text of the member whose value is being read. */
  key: string;
  keyText: string;
  /** Span of that key's literal, and whether the literal is canonical as written. */
  keyStart: number;
  keyEnd: number;
  keyVerbatim: boolean;
}

/** An array being read: canonical items joined so far, built only once it stops being verbatim. */
interface ArrayFrame extends FrameSpan {
  readonly isObject: false;
  out: string;
  count: number;
}

type Frame = ObjectFrame | ArrayFrame;

const HEX_OF_SHORT_ESCAPE: Record<string, number> = { '"': 0x22, '\\': 0x5c, b: 0x08, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 };

/** One code point as 6 hex digits: fixed width, so plain `<` on the joined digits is code point order. */
function hex6(codePoint: number): string {
  return codePoint.toString(16).padStart(6, '0');
}

/**
 * The sort and duplicate key of a member name in an object that has a name with a lone surrogate:
 * Python's code points as fixed-width hex, read from the canonical literal with marks. A JS string
 * cannot stand in: it fuses a raw high surrogate and a following escaped low one (two lone code
 * points, two distinct keys for Python) into one astral character.
 */
function pythonKey(marked: string): string {
  let out = '';
  for (let i = 1; i < marked.length - 1; i++) {
    let c = marked.charCodeAt(i);
    if (c === 0x01 /* LONE_SURROGATE_MARK: the next unit stands alone */) c = marked.charCodeAt(++i);
    else if (c === 0x5c) {
      const e = marked[++i] as string;
      if (e === 'u') {
        c = parseInt(marked.slice(i + 1, i + 5), 16);
        i += 4;
      } else c = HEX_OF_SHORT_ESCAPE[e] as number;
    } else if (c >= 0xd800 && c <= 0xdbff) c = marked.codePointAt(i++) as number;
    out += hex6(c);
  }
  return out;
}

/** {@link pythonKey} of a decoded name without lone surrogates. */
function pythonKeyOfDecoded(key: string): string {
  let out = '';
  for (const ch of key) out += hex6(ch.codePointAt(0) as number);
  return out;
}

/** The canonical text of a finished object: sorted by key, last duplicate wins. */
function closeObject(frame: ObjectFrame): string {
  const { keys, members } = frame;
  const n = keys.length;
  if (n === 0) return '{}';
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
  const r = new JsonReader(text, maxDepth, depthMessage);
  /** Open containers by depth; frames are pooled by depth and reused once their container closed. */
  const stack: Frame[] = [];
  const objectPool: ObjectFrame[] = [];
  const arrayPool: ArrayFrame[] = [];
  let maybeNonFinite = false;
  let maybeLoneSurrogate = false;
  let topLevelObject = false;
  let json = '';
  for (;;) {
    let value: string;
    /** The value's canonical text is its source text, `text.slice(valueStart, r.end)`. */
    let verbatim = true;
    let valueStart = r.start;
    switch (r.next()) {
      case STRING: {
        const flags = r.flags;
        valueStart = r.start;
        if ((flags & LONE) !== 0) maybeLoneSurrogate = true;
        value = r.canonicalString(LONE_SURROGATE_MARK);
        if ((flags & (ESCAPED | LONE)) !== 0) verbatim = (flags & LONE) === 0 && value === text.slice(r.start, r.end);
        break;
      }
      case NUMBER: {
        valueStart = r.start;
        const lexeme = text.slice(r.start, r.end);
        if (!r.isFloat) {
          verbatim = lexeme !== '-0';
          value = verbatim ? lexeme : '0';
          break;
        }
        const number = Number(lexeme);
        if (Number.isFinite(number)) {
          value = formatPythonFloat(number);
          verbatim = value === lexeme;
        } else {
          maybeNonFinite = true;
          value = NON_FINITE_MARK;
          verbatim = false;
        }
        break;
      }
      case KEY: {
        const frame = stack[r.depth - 1] as ObjectFrame;
        const keys = frame.keys;
        const flags = r.flags;
        let key = r.stringValue();
        frame.keyText = r.canonicalString(LONE_SURROGATE_MARK);
        frame.keyStart = r.start;
        frame.keyEnd = r.end;
        frame.keyVerbatim = (flags & (ESCAPED | SURROGATE)) === 0;
        if ((flags & SURROGATE) !== 0) {
          frame.surrogates = true;
          frame.ordered = false;
          if ((flags & LONE) !== 0) {
            maybeLoneSurrogate = true;
            if (!frame.lone) {
              frame.lone = true;
              for (let k = 0; k < keys.length; k++) keys[k] = pythonKeyOfDecoded(keys[k] as string);
            }
            key = pythonKey(frame.keyText);
          }
        }
        if (frame.lone && (flags & LONE) === 0) key = pythonKeyOfDecoded(key);
        if (frame.ordered && keys.length > 0 && !((keys[keys.length - 1] as string) < key)) frame.ordered = false;
        frame.key = key;
        continue;
      }
      case BEGIN_OBJECT: {
        const d = r.depth - 1;
        if (d === 0) topLevelObject = true;
        let frame = objectPool[d];
        if (frame === undefined) {
          frame = { isObject: true, keys: [], members: [], ordered: true, surrogates: false, lone: false, key: '', keyText: '', keyStart: 0, keyEnd: 0, keyVerbatim: false, start: 0, lastEnd: 0, verbatim: true };
          objectPool[d] = frame;
        } else {
          frame.keys.length = 0;
          frame.members.length = 0;
          frame.ordered = true;
          frame.surrogates = false;
          frame.lone = false;
          frame.verbatim = true;
        }
        frame.start = frame.lastEnd = r.start;
        stack[d] = frame;
        continue;
      }
      case BEGIN_ARRAY: {
        const d = r.depth - 1;
        let frame = arrayPool[d];
        if (frame === undefined) {
          frame = { isObject: false, out: '', count: 0, start: 0, lastEnd: 0, verbatim: true };
          arrayPool[d] = frame;
        } else {
          frame.out = '';
          frame.count = 0;
          frame.verbatim = true;
        }
        frame.start = frame.lastEnd = r.start;
        stack[d] = frame;
        continue;
      }
      case END_OBJECT: {
        const frame = stack[r.depth] as ObjectFrame;
        valueStart = frame.start;
        // The closing brace must follow the last member directly (`{}` counts: lastEnd is the brace).
        verbatim = frame.verbatim && frame.ordered && r.start === (frame.members.length === 0 ? frame.start + 1 : frame.lastEnd);
        value = verbatim ? text.slice(frame.start, r.end) : closeObject(frame);
        break;
      }
      case END_ARRAY: {
        const frame = stack[r.depth] as ArrayFrame;
        valueStart = frame.start;
        verbatim = frame.verbatim && r.start === (frame.count === 0 ? frame.start + 1 : frame.lastEnd);
        if (verbatim) value = text.slice(frame.start, r.end);
        else if (frame.verbatim) value = '[' + text.slice(frame.start + 1, frame.lastEnd) + ']';
        else value = '[' + frame.out + ']';
        break;
      }
      case TRUE:
        value = 'true';
        break;
      case FALSE:
        value = 'false';
        break;
      case NULL:
        value = 'null';
        break;
      case NON_FINITE:
        maybeNonFinite = true;
        value = NON_FINITE_MARK;
        verbatim = false;
        break;
      case END:
        return { json, topLevelObject, maybeNonFinite, maybeLoneSurrogate };
    }
    // Attach the finished value to its container.
    if (r.depth === 0) {
      json = value;
      continue;
    }
    const frame = stack[r.depth - 1] as Frame;
    const valueEnd = r.end;
    if (frame.isObject) {
      const member = verbatim && frame.keyVerbatim && valueStart === frame.keyEnd + 1;
      frame.keys.push(frame.key);
      frame.members.push(member ? text.slice(frame.keyStart, valueEnd) : frame.keyText + ':' + value);
      frame.verbatim = frame.verbatim && member && frame.keyStart === frame.lastEnd + 1;
    } else {
      const contiguous = verbatim && valueStart === frame.lastEnd + 1;
      if (frame.verbatim && !contiguous) {
        // No longer verbatim: the items so far are their own source text, commas included.
        frame.out = frame.count === 0 ? value : text.slice(frame.start + 1, frame.lastEnd) + ',' + value;
        frame.verbatim = false;
      } else if (!frame.verbatim) {
        frame.out += ',' + value;
      }
      frame.count++;
    }
    frame.lastEnd = valueEnd;
  }
}
