/**
 * The one JSON tokenizer of core. It reads CPython's `json.loads` grammar (the C scanner of
 * CPython 3.11: strict JSON plus the `NaN`, `Infinity` and `-Infinity` literals) and raises its
 * exact `JSONDecodeError` messages, positions counted in code points. Every reader of JSON text
 * in core is a consumer of it: the canonical writer (`canonicalizeJson`), the lossless tree
 * (`parseJsonTree`) and the read-path check of stored payloads (`isCanonicalObjectText`).
 *
 * It is a pull reader: {@link JsonReader.next} returns one token at a time with its span, already
 * checked against the grammar (delimiters, nesting, depth), so consumers never see malformed
 * input. Strings are validated but not decoded; a consumer decodes only the strings it needs
 * ({@link JsonReader.stringValue}). Nesting is a counter and an array of flags, never the call
 * stack, so hostile depth is a bounded validation error.
 */
import { CheckpointValidationError } from '../errors.js';
import { isHighSurrogate, isLowSurrogate } from './code-points.js';
import { decodeError } from './decode-errors.js';

/** `{`; the span is the brace. */
export const BEGIN_OBJECT = 1;
/** `}`; the span is the brace. */
export const END_OBJECT = 2;
/** `[`; the span is the bracket. */
export const BEGIN_ARRAY = 3;
/** `]`; the span is the bracket. */
export const END_ARRAY = 4;
/** A member name (its `:` has been read); the span is the string literal, quotes included. */
export const KEY = 5;
/** A string value; the span is the literal, quotes included. */
export const STRING = 6;
/** A number lexeme (`-0`, `1.50`, `1E400`); {@link JsonReader.isFloat} tells int from float. */
export const NUMBER = 7;
/** `NaN`, `Infinity` or `-Infinity`: Python parses them, only its encoder rejects them. */
export const NON_FINITE = 8;
/** `true`. */
export const TRUE = 9;
/** `false`. */
export const FALSE = 10;
/** `null`. */
export const NULL = 11;
/** End of the document (trailing whitespace skipped, nothing after it). */
export const END = 12;

/** A token kind returned by {@link JsonReader.next}. */
export type JsonToken =
  | typeof BEGIN_OBJECT
  | typeof END_OBJECT
  | typeof BEGIN_ARRAY
  | typeof END_ARRAY
  | typeof KEY
  | typeof STRING
  | typeof NUMBER
  | typeof NON_FINITE
  | typeof TRUE
  | typeof FALSE
  | typeof NULL
  | typeof END;

/** String flag: the literal contains a backslash escape. */
export const ESCAPED = 1;
/** String flag: the decoded value contains a surrogate unit (paired or not). */
export const SURROGATE = 2;
/**
 * String flag: the literal holds a lone surrogate as Python sees it: a raw surrogate without its
 * raw partner, or a `\uD8xx` escape not followed by a `\uDCxx` escape (CPython pairs escapes only
 * with escapes, so a raw high surrogate before an escaped low one gives two lone units).
 */
export const LONE = 4;

/** Runs of string content that need no attention: no quote, backslash, control char or surrogate. */
const PLAIN_RUN = /[^"\\\u0000-\u001f\ud800-\udfff]*/y;

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a, MINUS = 0x2d, U = 0x75;
const OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, OPEN_BRACKET = 0x5b, CLOSE_BRACKET = 0x5d;

/** Reader states: what the next token may be. */
const VALUE = 0, FIRST_IN_OBJECT = 1, FIRST_IN_ARRAY = 2, AFTER_VALUE = 3, DONE = 4;

/** Decoded value of each short escape, by the unit after the backslash. */
const SHORT_ESCAPES: Record<number, string> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };

function isDigit(unit: number): boolean {
  return unit >= 0x30 && unit <= 0x39;
}

function hexValue(unit: number): number {
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  if (unit >= 0x61 && unit <= 0x66) return unit - 0x57;
  if (unit >= 0x41 && unit <= 0x46) return unit - 0x37;
  return -1;
}

/** Value of the 4 hex digits at `start` (either case, like CPython), or -1. */
function hex4(text: string, start: number): number {
  const a = hexValue(text.charCodeAt(start));
  const b = hexValue(text.charCodeAt(start + 1));
  const c = hexValue(text.charCodeAt(start + 2));
  const d = hexValue(text.charCodeAt(start + 3));
  return a < 0 || b < 0 || c < 0 || d < 0 ? -1 : (a << 12) | (b << 8) | (c << 4) | d;
}

/**
 * Pull tokenizer over one JSON text. After each {@link next}, `start`/`end` give the token's span
 * (UTF-16 indices, `end` exclusive) and, for strings and numbers, `flags`/`isFloat` describe it.
 *
 * @example
 * ```ts
 * const r = new JsonReader('{"a": [1.5]}', 1000, 'too deep');
 * r.next(); // BEGIN_OBJECT
 * r.next(); // KEY; r.stringValue() === 'a'
 * r.next(); // BEGIN_ARRAY
 * r.next(); // NUMBER; r.text.slice(r.start, r.end) === '1.5', r.isFloat === true
 * ```
 */
export class JsonReader {
  readonly text: string;
  readonly length: number;
  /** Span of the last token. */
  start = 0;
  end = 0;
  /** {@link ESCAPED} | {@link SURROGATE} | {@link LONE} of the last string or key. */
  flags = 0;
  /** The last number has a fraction or an exponent (Python gives a `float`, else an `int`). */
  isFloat = false;
  /** Containers open after the last token. */
  depth = 0;
  private pos = 0;
  private state = VALUE;
  /** Per open container, true for an object. */
  private readonly objects: boolean[] = [];
  private readonly maxDepth: number;
  private readonly depthMessage: string | ((maxDepth: number) => string);
  /** Whitespace is not skipped (then it is a syntax error). */
  private readonly compact: boolean;

  /**
   * @param maxDepth Containers allowed open at once (the top-level one counting as 1).
   * @param depthMessage Message of the `CheckpointValidationError` for deeper input, or its
   *   builder (called only then: no string is built per document on the read path).
   * @param compact Treat whitespace as a syntax error, as the check of canonical text wants
   *   (default false: whitespace is skipped like CPython does).
   * @throws CheckpointValidationError for a leading BOM, like CPython's `json.loads`.
   */
  constructor(text: string, maxDepth: number, depthMessage: string | ((maxDepth: number) => string), compact = false) {
    this.text = text;
    this.length = text.length;
    this.maxDepth = maxDepth;
    this.depthMessage = depthMessage;
    this.compact = compact;
    if (text.charCodeAt(0) === 0xfeff) this.fail('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
    this.skipWhitespace();
  }

  /**
   * Reads the next token.
   *
   * @throws CheckpointValidationError with CPython's message for a syntax error, or the depth
   *   message when a container would open beyond `maxDepth`.
   */
  next(): JsonToken {
    const text = this.text;
    switch (this.state) {
      case VALUE:
        return this.value();
      case FIRST_IN_OBJECT:
        this.skipWhitespace();
        if (text.charCodeAt(this.pos) === CLOSE_BRACE) return this.close(END_OBJECT);
        return this.key();
      case FIRST_IN_ARRAY:
        this.skipWhitespace();
        if (text.charCodeAt(this.pos) === CLOSE_BRACKET) return this.close(END_ARRAY);
        return this.value();
      case AFTER_VALUE: {
        this.skipWhitespace();
        if (this.depth === 0) {
          if (this.pos !== this.length) this.fail('Extra data', this.pos);
          this.state = DONE;
          this.start = this.end = this.pos;
          return END;
        }
        const c = text.charCodeAt(this.pos);
        if (this.objects[this.depth - 1] === true) {
          if (c === CLOSE_BRACE) return this.close(END_OBJECT);
          if (c === COMMA) {
            this.pos++;
            this.skipWhitespace();
            return this.key();
          }
        } else {
          if (c === CLOSE_BRACKET) return this.close(END_ARRAY);
          if (c === COMMA) {
            this.pos++;
            this.skipWhitespace();
            return this.value();
          }
        }
        return this.fail("Expecting ',' delimiter", this.pos);
      }
      default:
        return END;
    }
  }

  /** The decoded value of the last string or key (lone surrogates kept, as Python keeps them). */
  stringValue(): string {
    if ((this.flags & ESCAPED) === 0) return this.text.slice(this.start + 1, this.end - 1);
    return decodeString(this.text, this.start, this.end, undefined);
  }

  /**
   * The canonical literal of the last string or key (quotes included), as `json.dumps` with
   * `ensure_ascii=False` writes it. Each lone surrogate unit is kept raw and preceded by `mark`,
   * which lets the canonical writer report it later only if its value survives duplicate keys.
   */
  canonicalString(mark: string): string {
    const flags = this.flags;
    // Without escapes or lone surrogates the literal is already canonical: nothing in it needs one.
    if ((flags & (ESCAPED | LONE)) === 0) return this.text.slice(this.start, this.end);
    if ((flags & LONE) === 0) return JSON.stringify(decodeString(this.text, this.start, this.end, undefined));
    return decodeString(this.text, this.start, this.end, mark);
  }

  /** Throws CPython's `JSONDecodeError` text for `message` at `index`. */
  fail(message: string, index: number): never {
    throw decodeError(message, this.text, index);
  }

  private close(token: typeof END_OBJECT | typeof END_ARRAY): JsonToken {
    this.start = this.pos++;
    this.end = this.pos;
    this.depth--;
    this.state = AFTER_VALUE;
    return token;
  }

  /** A member name at `pos` (whitespace skipped), then its `:` and the whitespace after it. */
  private key(): JsonToken {
    const text = this.text;
    if (text.charCodeAt(this.pos) !== QUOTE) this.fail('Expecting property name enclosed in double quotes', this.pos);
    this.start = this.pos;
    this.readString();
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) !== COLON) this.fail("Expecting ':' delimiter", this.pos);
    this.pos++;
    this.skipWhitespace();
    this.state = VALUE;
    return KEY;
  }

  /** A value at `pos` (whitespace skipped). */
  private value(): JsonToken {
    const text = this.text;
    const pos = this.pos;
    const c = text.charCodeAt(pos);
    this.start = pos;
    this.state = AFTER_VALUE;
    if (c === QUOTE) {
      this.readString();
      return STRING;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (this.depth >= this.maxDepth) {
        const message = this.depthMessage;
        throw new CheckpointValidationError(typeof message === 'string' ? message : message(this.maxDepth));
      }
      const object = c === OPEN_BRACE;
      this.objects[this.depth++] = object;
      this.pos = this.end = pos + 1;
      this.state = object ? FIRST_IN_OBJECT : FIRST_IN_ARRAY;
      return object ? BEGIN_OBJECT : BEGIN_ARRAY;
    }
    if (c === MINUS || isDigit(c)) return this.readNumber();
    if (c === 0x6e && text.startsWith('null', pos)) return this.word(NULL, 4);
    if (c === 0x74 && text.startsWith('true', pos)) return this.word(TRUE, 4);
    if (c === 0x66 && text.startsWith('false', pos)) return this.word(FALSE, 5);
    if (c === 0x4e && text.startsWith('NaN', pos)) return this.word(NON_FINITE, 3);
    if (c === 0x49 && text.startsWith('Infinity', pos)) return this.word(NON_FINITE, 8);
    return this.fail('Expecting value', pos);
  }

  private word(token: JsonToken, length: number): JsonToken {
    this.pos = this.end = this.start + length;
    return token;
  }

  /** A number (or `-Infinity`) at `pos`, with CPython's backtracking on `1.` and `1e+`. */
  private readNumber(): JsonToken {
    const { text, length } = this;
    const start = this.pos;
    let i = start;
    let c = text.charCodeAt(i);
    if (c === MINUS) {
      if (text.startsWith('-Infinity', i)) return this.word(NON_FINITE, 9);
      c = text.charCodeAt(++i);
    }
    if (c >= 0x31 && c <= 0x39) {
      i++;
      while (isDigit(text.charCodeAt(i))) i++;
    } else if (c === 0x30) {
      i++;
    } else {
      this.fail('Expecting value', start);
    }
    let isFloat = false;
    if (text.charCodeAt(i) === 0x2e && isDigit(text.charCodeAt(i + 1))) {
      isFloat = true;
      i += 2;
      while (isDigit(text.charCodeAt(i))) i++;
    }
    if ((text.charCodeAt(i) | 0x20) === 0x65 /* e or E */) {
      let j = i + 1;
      const sign = text.charCodeAt(j);
      if (sign === 0x2d || sign === 0x2b) j++;
      if (isDigit(text.charCodeAt(j))) {
        isFloat = true;
        j++;
        while (j < length && isDigit(text.charCodeAt(j))) j++;
        i = j;
      }
    }
    this.isFloat = isFloat;
    this.pos = this.end = i;
    return NUMBER;
  }

  /** Validates the string literal whose quote is at `pos` (CPython's strict `scanstring`); sets `flags`. */
  private readString(): void {
    const { text, length } = this;
    const quote = this.pos;
    this.flags = 0;
    PLAIN_RUN.lastIndex = quote + 1;
    PLAIN_RUN.test(text);
    let j = PLAIN_RUN.lastIndex;
    for (;;) {
      if (j >= length) this.fail('Unterminated string starting at', quote);
      const c = text.charCodeAt(j);
      if (c === QUOTE) break;
      if (c === BACKSLASH) j = this.readEscape(j, quote);
      else if (c < 0x20) this.fail('Invalid control character at', j);
      else {
        // A raw surrogate: fine as the first half of a raw pair, lone otherwise.
        this.flags |= SURROGATE;
        if (isHighSurrogate(c) && isLowSurrogate(text.charCodeAt(j + 1))) j += 2;
        else {
          this.flags |= LONE;
          j++;
        }
      }
      PLAIN_RUN.lastIndex = j;
      PLAIN_RUN.test(text);
      j = PLAIN_RUN.lastIndex;
    }
    this.pos = this.end = j + 1;
  }

  /** Validates the escape whose backslash is at `j`; returns the index after it. */
  private readEscape(j: number, quote: number): number {
    const { text, length } = this;
    this.flags |= ESCAPED;
    const next = j + 1;
    if (next >= length) this.fail('Unterminated string starting at', quote);
    const e = text.charCodeAt(next);
    if (e !== U) {
      if (SHORT_ESCAPES[e] === undefined) this.fail('Invalid \\escape', j);
      return next + 1;
    }
    const end = next + 5; // after the 4 hex digits
    // CPython wants a character after the digits (the closing quote at least) before reading them.
    if (end >= length) this.fail('Invalid \\uXXXX escape', next);
    const unit = hex4(text, next + 1);
    if (unit < 0) this.fail('Invalid \\uXXXX escape', next);
    if (unit >= 0xd800 && unit <= 0xdfff) {
      this.flags |= SURROGATE;
      if (isHighSurrogate(unit) && end + 6 < length && text.charCodeAt(end) === BACKSLASH && text.charCodeAt(end + 1) === U) {
        const low = hex4(text, end + 2);
        if (low < 0) this.fail('Invalid \\uXXXX escape', end + 1);
        if (isLowSurrogate(low)) return end + 6;
      }
      this.flags |= LONE;
    }
    return end;
  }

  private skipWhitespace(): void {
    const text = this.text;
    let i = this.pos;
    let c = text.charCodeAt(i);
    // The usual case, and always in compact mode: no whitespace here.
    if (c > 0x20 || this.compact) return;
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++i);
    this.pos = i;
  }
}

/**
 * Decodes the string literal `text.slice(start, end)`, already validated by the reader. Without
 * `mark` it returns the value; with `mark` it returns the canonical literal, quotes included, with
 * `mark` before each lone surrogate unit (pairing as in {@link LONE}). Only strings with escapes
 * or lone surrogates come here.
 */
function decodeString(text: string, start: number, end: number, mark: string | undefined): string {
  const last = end - 1;
  let out = mark === undefined ? '' : '"';
  let run = start + 1;
  let j = run;
  while (j < last) {
    const c = text.charCodeAt(j);
    let piece: string;
    let lone = false;
    let next: number;
    if (c === BACKSLASH) {
      const e = text.charCodeAt(j + 1);
      if (e === U) {
        const unit = hex4(text, j + 2);
        next = j + 6;
        piece = String.fromCharCode(unit);
        if (unit >= 0xd800 && unit <= 0xdfff) {
          const low = isHighSurrogate(unit) && text.charCodeAt(next) === BACKSLASH && text.charCodeAt(next + 1) === U ? hex4(text, next + 2) : -1;
          if (isLowSurrogate(low)) {
            piece += String.fromCharCode(low);
            next += 6;
          } else lone = true;
        }
      } else {
        piece = SHORT_ESCAPES[e] as string;
        next = j + 2;
      }
    } else if (c >= 0xd800 && c <= 0xdfff) {
      if (isHighSurrogate(c) && isLowSurrogate(text.charCodeAt(j + 1))) {
        j += 2;
        continue;
      }
      piece = text[j] as string;
      lone = true;
      next = j + 1;
    } else {
      j++;
      continue;
    }
    // The run before the piece holds nothing that needs escaping (the reader refused controls).
    out += text.slice(run, j);
    if (mark === undefined) out += piece;
    else out += lone ? mark + piece : JSON.stringify(piece).slice(1, -1);
    run = j = next;
  }
  out += text.slice(run, last);
  return mark === undefined ? out : out + '"';
}
