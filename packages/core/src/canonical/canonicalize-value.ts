/** Canonicalisation of JavaScript values (the `json.dumps` half of the reference). */
import { CheckpointValidationError } from '../errors.js';
import { codePointOffset, findLoneSurrogate } from './code-points.js';
import { depthMessage, loneSurrogateError, OUT_OF_RANGE_MESSAGE } from './decode-errors.js';
import { quotedPlainKey } from './key-cache.js';
import { compareCodePoints } from './key-order.js';
import { resolveMaxDepth } from './options.js';
import type { CanonicalizeOptions } from './options.js';
import { isPlainObject } from './plain-object.js';
import { formatJsNumber } from '../python/float-repr.js';
import { isWellFormed, quoteJsonString } from './string-escape.js';

export type { CanonicalizeOptions } from './options.js';

/**
 * The longest prefix that can be quoted as is: no quote, backslash, control char or surrogate.
 * When it spans the whole string (the common case) no escaping call is needed. A sticky greedy run
 * is markedly faster in V8 than an unanchored search for the first offending character.
 */
const PLAIN_RUN = /[^"\\\u0000-\u001f\ud800-\udfff]*/y;

/** True when `text` needs no escaping and has no surrogates. */
function isPlain(text: string): boolean {
  PLAIN_RUN.lastIndex = 0;
  PLAIN_RUN.test(text);
  return PLAIN_RUN.lastIndex === text.length;
}

/**
 * One open container of the explicit traversal stack. Frames are pooled by depth and their arrays
 * reused, so walking many small objects allocates almost nothing besides the output.
 */
interface Frame {
  /** The container itself, kept for cycle detection. */
  container: object;
  /** The array being walked, or `undefined` for an object. */
  array: unknown[] | undefined;
  /** For an object: sorted keys, their values and canonical key literals (first `length` slots). */
  keys: string[];
  values: unknown[];
  quoted: string[];
  index: number;
  length: number;
}

function newFrame(): Frame {
  return { container: NO_CONTAINER, array: undefined, keys: [], values: [], quoted: [], index: 0, length: 0 };
}
const NO_CONTAINER = {};

function typeName(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value !== 'object' || value === null) return typeof value;
  const ctor = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor;
  return typeof ctor?.name === 'string' && ctor.name !== '' ? ctor.name : 'object';
}

function notSerializable(value: unknown): CheckpointValidationError {
  // Python's TypeError text, with the reference's prefix.
  return new CheckpointValidationError(`payload is not valid JSON: Object of type ${typeName(value)} is not JSON serializable`);
}

/** True when `value` is one of the containers currently open (a cycle). */
function onStack(frames: Frame[], depth: number, value: unknown): boolean {
  for (let d = 0; d < depth; d++) if ((frames[d] as Frame).container === value) return true;
  return false;
}

/** True when some enumerable property is inherited from `Object.prototype` (prototype pollution). */
function objectPrototypeHasEnumerables(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}

/**
 * Reads the own enumerable string-keyed members of `object` into the frame (unsorted) and returns
 * their count. `for...in` uses V8's enum cache and is markedly faster than `Object.keys` plus
 * keyed loads, but it also lists inherited enumerable properties, so it is only used when there
 * can be none.
 */
function collectMembers(object: Record<string, unknown>, frame: Frame, forInIsOwn: boolean): number {
  const { keys, values } = frame;
  let n = 0;
  if (forInIsOwn) {
    for (const key in object) {
      keys[n] = key;
      values[n] = object[key];
      n++;
    }
  } else {
    const own = Object.keys(object);
    for (; n < own.length; n++) {
      const key = own[n] as string;
      keys[n] = key;
      values[n] = object[key];
    }
  }
  return n;
}

/**
 * Sorts the first `n` members of the frame by key, code point order. Returns true when a key has a
 * lone surrogate. Keys without surrogates (every cached key) sort correctly with plain `<`.
 */
function sortMembers(frame: Frame, n: number): boolean {
  const { keys, values, quoted } = frame;
  let plain = true;
  for (let k = 0; k < n; k++) {
    const q = quotedPlainKey(keys[k] as string);
    if (q === undefined) {
      plain = false;
      break;
    }
    quoted[k] = q;
  }
  if (plain && n <= 16) {
    // Insertion sort: the small objects that dominate payloads sort several times faster this way.
    for (let i = 1; i < n; i++) {
      const key = keys[i] as string;
      if ((keys[i - 1] as string) < key) continue;
      const value = values[i];
      const q = quoted[i] as string;
      let j = i - 1;
      while (j >= 0 && (keys[j] as string) > key) {
        keys[j + 1] = keys[j] as string;
        values[j + 1] = values[j];
        quoted[j + 1] = quoted[j] as string;
        j--;
      }
      keys[j + 1] = key;
      values[j + 1] = value;
      quoted[j + 1] = q;
    }
    return false;
  }
  const order: number[] = [];
  for (let k = 0; k < n; k++) order.push(k);
  const sortedKeys = keys.slice(0, n);
  const sortedValues = values.slice(0, n);
  if (plain) order.sort((a, b) => ((sortedKeys[a] as string) < (sortedKeys[b] as string) ? -1 : 1));
  else order.sort((a, b) => compareCodePoints(sortedKeys[a] as string, sortedKeys[b] as string));
  let lone = false;
  const sortedQuoted = plain ? quoted.slice(0, n) : undefined;
  for (let k = 0; k < n; k++) {
    const from = order[k] as number;
    const key = sortedKeys[from] as string;
    keys[k] = key;
    values[k] = sortedValues[from];
    if (sortedQuoted !== undefined) quoted[k] = sortedQuoted[from] as string;
    else {
      if (!isWellFormed(key)) lone = true;
      quoted[k] = quoteJsonString(key);
    }
  }
  return lone;
}

/**
 * Canonical JSON text of a JavaScript value, byte-identical to Python's
 * `json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)`
 * for the equivalent Python value.
 *
 * Accepted: plain objects (own enumerable string keys; `Object.prototype` or `null` prototype),
 * arrays, strings, booleans, `null`, finite numbers and `bigint`. An integral number prints as an
 * exact integer (`1.0` is the JS number `1`, printed `1`; `2 ** 64` prints all its digits), `-0`
 * as `0`; any other number prints like Python's `float.__repr__` (`1e-07`, `0.5`). Keys are sorted
 * by code point (U+FF01 before U+1F600), `__proto__` is an ordinary key. `toJSON` is NOT honoured:
 * a `Date` is rejected rather than silently turned into a string.
 *
 * Rejected with a {@link CheckpointValidationError}: `undefined` (also as an object member or
 * array hole), functions, symbols, NaN/±Infinity, class instances, Map/Set/Date, cycles, lone
 * surrogates in strings or keys, nesting deeper than `maxDepth` (default 1000; the top-level
 * container counts as 1). Deep values never overflow the call stack: traversal uses an explicit stack.
 *
 * @example
 * ```ts
 * canonicalize({ b: [1, 0.1, 1e21], a: 'é', n: 12345678901234567890n });
 * // '{"a":"é","b":[1,0.1,1000000000000000000000],"n":12345678901234567890}'
 * ```
 */
export function canonicalize(value: unknown, options?: CanonicalizeOptions): string {
  const maxDepth = resolveMaxDepth(options?.maxDepth);
  const forInIsOwnForPlain = !objectPrototypeHasEnumerables();
  const frames: Frame[] = [];
  let depth = 0;
  let out = '';
  let lone = false;
  let current: unknown = value;
  for (;;) {
    // Emit `current`; a non-empty container opens a frame and continues with its first element.
    switch (typeof current) {
      case 'string':
        if (isPlain(current)) out += '"' + current + '"';
        else if (isWellFormed(current)) out += JSON.stringify(current);
        else {
          lone = true;
          out += quoteJsonString(current);
        }
        break;
      case 'number':
        if (!Number.isFinite(current)) throw new CheckpointValidationError(OUT_OF_RANGE_MESSAGE);
        out += formatJsNumber(current);
        break;
      case 'boolean':
        out += current ? 'true' : 'false';
        break;
      case 'bigint':
        out += current.toString();
        break;
      case 'object': {
        if (current === null) {
          out += 'null';
          break;
        }
        // A cycle would otherwise only end at maxDepth; checking at powers of two from 64 finds
        // it early at amortised O(1) cost and never runs for shallow data.
        if (depth >= 64 && (depth & (depth - 1)) === 0 && onStack(frames, depth, current)) {
          throw new CheckpointValidationError('payload is not valid JSON: Circular reference detected');
        }
        if (depth >= maxDepth) {
          if (onStack(frames, depth, current)) throw new CheckpointValidationError('payload is not valid JSON: Circular reference detected');
          throw new CheckpointValidationError(depthMessage(maxDepth));
        }
        if (Array.isArray(current)) {
          const array = current as unknown[];
          if (array.length === 0) {
            out += '[]';
            break;
          }
          const frame = frames[depth] ?? (frames[depth] = newFrame());
          frame.container = array;
          frame.array = array;
          frame.index = 1;
          frame.length = array.length;
          depth++;
          out += '[';
          current = array[0];
          continue;
        }
        if (!isPlainObject(current)) throw notSerializable(current);
        const frame = frames[depth] ?? (frames[depth] = newFrame());
        const proto: unknown = Object.getPrototypeOf(current);
        const n = collectMembers(current, frame, proto === null || (proto === Object.prototype && forInIsOwnForPlain));
        if (n === 0) {
          out += '{}';
          break;
        }
        if (sortMembers(frame, n)) lone = true;
        frame.container = current;
        frame.array = undefined;
        frame.index = 1;
        frame.length = n;
        depth++;
        out += '{' + (frame.quoted[0] as string) + ':';
        current = frame.values[0];
        continue;
      }
      default:
        throw notSerializable(current);
    }

    // `current` is done: move to the next element, closing finished containers on the way.
    for (;;) {
      if (depth === 0) {
        if (lone) {
          const index = findLoneSurrogate(out);
          // Same position Python reports: the code point offset in the canonical text.
          throw loneSurrogateError(out.charCodeAt(index), codePointOffset(out, index));
        }
        return out;
      }
      const frame = frames[depth - 1] as Frame;
      if (frame.index < frame.length) {
        const index = frame.index++;
        if (frame.array !== undefined) {
          out += ',';
          current = frame.array[index];
        } else {
          out += ',' + (frame.quoted[index] as string) + ':';
          current = frame.values[index];
        }
        break;
      }
      out += frame.array === undefined ? '}' : ']';
      depth--;
    }
  }
}
