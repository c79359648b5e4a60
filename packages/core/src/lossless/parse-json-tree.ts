/**
 * A lossless JSON reader with the grammar and error messages of Python's `json.loads` (the C
 * scanner of CPython 3.11), used wherever exact number lexemes and member order matter: import
 * bundles, CLI payload files. It is a consumer of core's one tokenizer ({@link JsonReader}), which
 * never recurses, so hostile depth costs a bounded array, not the call stack.
 */
import { CheckpointValidationError } from '../errors.js';
import { positiveInteger } from '../validation/integers.js';
import {
  BEGIN_ARRAY,
  BEGIN_OBJECT,
  END,
  END_ARRAY,
  END_OBJECT,
  FALSE,
  JsonReader,
  KEY,
  NON_FINITE,
  NULL,
  NUMBER,
  STRING,
  TRUE,
} from '../canonical/json-reader.js';
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

interface Frame {
  node: JsonObjectNode | JsonArrayNode;
  /** Children are attached (the container is within keepDepth). */
  keep: boolean;
  /** Key of the member whose value is being read (objects only). */
  key: string;
}

/** Node kinds of the literal tokens. */
const LITERALS = { [TRUE]: 'true', [FALSE]: 'false', [NULL]: 'null' } as const;

function positive(value: number | undefined, fallback: number, name: string): number {
  return value === undefined ? fallback : positiveInteger(value, name);
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
  if (typeof text !== 'string') throw new CheckpointValidationError('JSON input must be a string');
  const maxDepth = positive(options.maxDepth, DEFAULT_TREE_MAX_DEPTH, 'maxDepth');
  const keepDepth = positive(options.keepDepth, Number.MAX_SAFE_INTEGER, 'keepDepth');
  const r = new JsonReader(text, maxDepth, options.depthMessage ?? `JSON nesting exceeds the maximum depth of ${maxDepth}`);
  /** Open containers by depth. */
  const stack: Frame[] = [];
  let root: JsonNode | undefined;
  for (;;) {
    const token = r.next();
    const depth = r.depth;
    // Children are attached only within keepDepth (the container holding them is then kept).
    let value: JsonNode;
    switch (token) {
      case BEGIN_OBJECT:
      case BEGIN_ARRAY: {
        const parentKeeps = depth === 1 || (stack[depth - 2] as Frame).keep;
        const keep = depth - 1 < keepDepth;
        const skipped = parentKeeps && !keep ? { skipped: true as const } : {};
        const node: JsonObjectNode | JsonArrayNode =
          token === BEGIN_OBJECT
            ? { kind: 'object', entries: [], start: r.start, end: r.start, ...skipped }
            : { kind: 'array', items: [], start: r.start, end: r.start, ...skipped };
        stack[depth - 1] = { node, keep, key: '' };
        continue;
      }
      case KEY: {
        const frame = stack[depth - 1] as Frame;
        frame.key = frame.keep ? r.stringValue() : '';
        continue;
      }
      case END_OBJECT:
      case END_ARRAY:
        value = (stack[depth] as Frame).node;
        (value as { end: number }).end = r.end;
        break;
      case STRING:
        value = { kind: 'string', value: depth === 0 || (stack[depth - 1] as Frame).keep ? r.stringValue() : '', start: r.start, end: r.end };
        break;
      case NUMBER:
      case NON_FINITE:
        value = { kind: 'number', lexeme: text.slice(r.start, r.end), start: r.start, end: r.end };
        break;
      case TRUE:
      case FALSE:
      case NULL:
        value = { kind: LITERALS[token], start: r.start, end: r.end };
        break;
      case END:
        return root as JsonNode;
    }
    if (depth === 0) {
      root = value;
      continue;
    }
    const frame = stack[depth - 1] as Frame;
    if (!frame.keep) continue;
    const parent = frame.node;
    if (parent.kind === 'object') parent.entries.push([frame.key, value]);
    else parent.items.push(value);
  }
}

