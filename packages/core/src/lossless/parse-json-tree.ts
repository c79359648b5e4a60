/**
 * A lossless JSON reader with the grammar and error messages of Python's `json.loads` (the C
 * scanner of CPython 3.11), used wherever exact number lexemes and member order matter: import
 * bundles, CLI payload files. It never recurses: nesting is tracked on an explicit stack, so hostile
 * depth costs a bounded array, not the call stack.
 */
import { CheckpointValidationError } from '../errors.js';
import { decodeError } from '../canonical/decode-errors.js';
import type { JsonArrayNode, JsonNode, JsonObjectNode } from './json-node.js';

/** Options of {@link parseJsonTree}. */
export interface ParseJsonTreeOptions {
  /**
   * Max nesting of arrays and objects, the top-level container counting as 1. Deeper input is a
   * `CheckpointValidationError` (Python would crash with RecursionError). Default is
   * {@link DEFAULT_TREE_MAX_DEPTH} (1024: a 1000-deep payload inside the 3 levels of a bundle fits).
   */
  maxDepth?: number;
  /** Message of the depth error. Default is `JSON nesting exceeds the maximum depth of {maxDepth}`. */
  depthMessage?: string;
  /**
   * Deepest container level whose children are kept in the tree. Containers below it are fully
   * checked but returned as empty shells with `skipped: true` and their span, which keeps memory
   * proportional to the shape the caller needs (a bundle reader re-reads payloads by span).
   * Default is unlimited.
   */
  keepDepth?: number;
}

/** Default {@link ParseJsonTreeOptions.maxDepth}: the 1000-level payload cap plus room for a bundle's wrapper. */
export const DEFAULT_TREE_MAX_DEPTH = 1024;

const SPACE = 0x20, TAB = 0x09, LF = 0x0a, CR = 0x0d;
const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;
const OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, OPEN_BRACKET = 0x5b, CLOSE_BRACKET = 0x5d;

/** Python's number grammar, including its backtracking on `1.` and `1e+` (the tail is left unread). */
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
/** A run of string characters that need no attention. */
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;

const SHORT_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

interface Frame {
  node: JsonObjectNode | JsonArrayNode;
  /** Children are attached (the frame is within keepDepth). */
  keep: boolean;
  /** Key of the member whose value is being read (objects only). */
  key: string;
}

/**
 * Parses JSON text into a {@link JsonNode} tree without losing anything: number lexemes, member
 * order, duplicate keys and the source span of every value are kept.
 *
 * Grammar and messages are Python's: only space, tab, CR and LF are whitespace; a leading BOM, trailing
 * commas, comments, single quotes, leading zeros, `+1` and `.5` are rejected; `NaN`, `Infinity` and
 * `-Infinity` are accepted as number lexemes. Positions in messages count code points.
 *
 * @throws CheckpointValidationError with Python's message, e.g. `Expecting value: line 1 column 1 (char 0)`,
 *   or the depth message when nesting exceeds `maxDepth`.
 * @example
 * ```ts
 * const tree = parseJsonTree('{"__proto__": 1.0, "big": 12345678901234567890}');
 * // { kind: 'object', entries: [['__proto__', { kind: 'number', lexeme: '1.0', ... }], ...], start: 0, end: 47 }
 * ```
 */
export function parseJsonTree(text: string, options: ParseJsonTreeOptions = {}): JsonNode {
  return new TreeParser(text, options).parse();
}

class TreeParser {
  readonly #text: string;
  readonly #length: number;
  readonly #maxDepth: number;
  readonly #depthMessage: string;
  readonly #keepDepth: number;
  #i = 0;

  constructor(text: string, options: ParseJsonTreeOptions) {
    if (typeof text !== 'string') throw new CheckpointValidationError('JSON input must be a string');
    this.#text = text;
    this.#length = text.length;
    this.#maxDepth = positive(options.maxDepth, DEFAULT_TREE_MAX_DEPTH, 'maxDepth');
    this.#depthMessage = options.depthMessage ?? `JSON nesting exceeds the maximum depth of ${this.#maxDepth}`;
    this.#keepDepth = positive(options.keepDepth, Number.MAX_SAFE_INTEGER, 'keepDepth');
  }

  parse(): JsonNode {
    const text = this.#text;
    if (text.charCodeAt(0) === 0xfeff) throw this.#error('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
    this.#skipWhitespace();
    const stack: Frame[] = [];
    let root: JsonNode | undefined;
    outer: for (;;) {
      // A value starts at #i (whitespace already skipped).
      let value: JsonNode;
      const c = text.charCodeAt(this.#i);
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (stack.length >= this.#maxDepth) throw new CheckpointValidationError(this.#depthMessage);
        const parentKeeps = stack.length === 0 || (stack[stack.length - 1] as Frame).keep;
        const keep = stack.length < this.#keepDepth;
        const start = this.#i++;
        const node: JsonObjectNode | JsonArrayNode =
          c === OPEN_BRACE
            ? { kind: 'object', entries: [], start, end: start, ...(parentKeeps && !keep ? { skipped: true as const } : {}) }
            : { kind: 'array', items: [], start, end: start, ...(parentKeeps && !keep ? { skipped: true as const } : {}) };
        this.#skipWhitespace();
        const close = c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
        if (text.charCodeAt(this.#i) === close) {
          (node as { end: number }).end = ++this.#i;
          value = node;
        } else {
          const frame: Frame = { node, keep, key: '' };
          if (c === OPEN_BRACE) frame.key = this.#readKey(keep);
          stack.push(frame);
          continue outer;
        }
      } else {
        value = this.#scalar(stack.length === 0 || (stack[stack.length - 1] as Frame).keep);
      }
      // Attach the finished value and close every container that ends here.
      for (;;) {
        const frame = stack[stack.length - 1];
        if (frame === undefined) {
          root = value;
          break outer;
        }
        const node = frame.node;
        if (frame.keep) {
          if (node.kind === 'object') node.entries.push([frame.key, value]);
          else node.items.push(value);
        }
        this.#skipWhitespace();
        const next = text.charCodeAt(this.#i);
        if (next === (node.kind === 'object' ? CLOSE_BRACE : CLOSE_BRACKET)) {
          (node as { end: number }).end = ++this.#i;
          stack.pop();
          value = node;
          continue;
        }
        if (next !== COMMA) throw this.#error("Expecting ',' delimiter", this.#i);
        this.#i++;
        this.#skipWhitespace();
        if (node.kind === 'object') frame.key = this.#readKey(frame.keep);
        continue outer;
      }
    }
    this.#skipWhitespace();
    if (this.#i !== this.#length) throw this.#error('Extra data', this.#i);
    return root;
  }

  /** Reads `"key"` and the `:` after it, leaving #i at the value. */
  #readKey(keep: boolean): string {
    if (this.#text.charCodeAt(this.#i) !== QUOTE) {
      throw this.#error('Expecting property name enclosed in double quotes', this.#i);
    }
    const key = this.#string(keep);
    this.#skipWhitespace();
    if (this.#text.charCodeAt(this.#i) !== COLON) throw this.#error("Expecting ':' delimiter", this.#i);
    this.#i++;
    this.#skipWhitespace();
    return key;
  }

  /** A string, number or literal at #i. Nodes below keepDepth are still built (cheap), just not attached. */
  #scalar(keep: boolean): JsonNode {
    const text = this.#text;
    const start = this.#i;
    const c = text.charCodeAt(start);
    if (c === QUOTE) {
      const value = this.#string(keep);
      return { kind: 'string', value, start, end: this.#i };
    }
    const word = c === 0x6e ? 'null' : c === 0x74 ? 'true' : c === 0x66 ? 'false' : c === 0x4e ? 'NaN' : c === 0x49 ? 'Infinity' : c === 0x2d ? '-Infinity' : undefined;
    if (word !== undefined && text.startsWith(word, start)) {
      this.#i = start + word.length;
      if (word === 'null' || word === 'true' || word === 'false') return { kind: word, start, end: this.#i };
      return { kind: 'number', lexeme: word, start, end: this.#i };
    }
    NUMBER.lastIndex = start;
    if (!NUMBER.test(text)) throw this.#error('Expecting value', start);
    this.#i = NUMBER.lastIndex;
    return { kind: 'number', lexeme: text.slice(start, this.#i), start, end: this.#i };
  }

  /** Reads a string literal starting at the quote at #i; returns its value ('' when not kept). */
  #string(keep: boolean): string {
    const text = this.#text;
    const begin = this.#i;
    let runStart = begin + 1;
    let i = runStart;
    let parts: string[] | undefined;
    for (;;) {
      PLAIN_RUN.lastIndex = i;
      PLAIN_RUN.test(text);
      i = PLAIN_RUN.lastIndex;
      if (i >= this.#length) throw this.#error('Unterminated string starting at', begin);
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        this.#i = i + 1;
        if (!keep) return '';
        if (parts === undefined) return text.slice(runStart, i);
        parts.push(text.slice(runStart, i));
        return parts.join('');
      }
      if (c !== BACKSLASH) throw this.#error('Invalid control character at', i);
      // An escape at i.
      if (i + 1 >= this.#length) throw this.#error('Unterminated string starting at', begin);
      if (keep) (parts ??= []).push(text.slice(runStart, i));
      const e = text[i + 1] as string;
      if (e !== 'u') {
        const decoded = SHORT_ESCAPES[e];
        if (decoded === undefined) throw this.#error('Invalid \\escape', i);
        if (keep) parts?.push(decoded);
        i += 2;
      } else {
        const unit = this.#hex4(i + 1);
        i += 6;
        let decoded = String.fromCharCode(unit);
        // A high surrogate followed by an escaped low surrogate is one character; anything else
        // leaves the high surrogate alone (Python keeps lone surrogates).
        if (unit >= 0xd800 && unit <= 0xdbff && i + 6 < this.#length && text.charCodeAt(i) === BACKSLASH && text[i + 1] === 'u') {
          const low = this.#hex4(i + 1);
          if (low >= 0xdc00 && low <= 0xdfff) {
            decoded += String.fromCharCode(low);
            i += 6;
          }
        }
        if (keep) parts?.push(decoded);
      }
      runStart = i;
    }
  }

  /** The 4 hex digits after the `u` at index `u`; Python reports errors at the `u`. */
  #hex4(u: number): number {
    // Python requires a character after the digits (the closing quote at least) before looking at them.
    if (u + 5 >= this.#length) throw this.#error('Invalid \\uXXXX escape', u);
    const digits = this.#text.slice(u + 1, u + 5);
    if (!HEX4.test(digits)) throw this.#error('Invalid \\uXXXX escape', u);
    return parseInt(digits, 16);
  }

  #skipWhitespace(): void {
    const text = this.#text;
    let i = this.#i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === SPACE || c === LF || c === CR || c === TAB) i++;
      else break;
    }
    this.#i = i;
  }

  #error(msg: string, index: number): CheckpointValidationError {
    return decodeError(msg, this.#text, index);
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new CheckpointValidationError(`${name} must be a positive integer`);
  }
  return value;
}
