/**
 * JSON output in the exact layout of Python's `json.dumps(obj, ensure_ascii=False, indent=2)`, which
 * is what the reference CLI prints and what its export files contain. Used for CLI output and
 * bundles, so that our bytes equal the reference's bytes.
 */
import { nonNegativeInteger } from '../validation/integers.js';
import { appendReindented, isRawJson } from '../lossless/raw-json.js';

type Frame =
  | { readonly kind: 'array'; readonly source: object; readonly items: readonly unknown[]; index: number }
  | { readonly kind: 'object'; readonly source: object; readonly entries: ReadonlyArray<readonly [string, unknown]>; index: number };

/**
 * Serialises `value` like Python's `json.dumps(value, ensure_ascii=False, indent=indent)`:
 * members separated by `",\n"` plus indentation, `": "` between key and value, `{}` and `[]` for
 * empty containers, keys in insertion order (not sorted), strings escaped as Python escapes them
 * (`\"`, `\\`, `\b \f \n \r \t`, other C0 controls as lowercase `\u00XX`, everything else raw).
 * No trailing newline.
 *
 * Accepted values: `null`, booleans, strings, integer numbers and bigints (exact), arrays, plain
 * objects, `Map`s with string keys (keep any key order, including integer-like keys that plain
 * objects would reorder), and {@link RawJson} (embedded re-indented, never through a double).
 * Object members whose value is `undefined` are left out. Iterative: nesting depth is not limited
 * by the call stack.
 *
 * Deliberate difference: a lone surrogate in a string is written as a `\udXXX` escape (valid JSON,
 * lossless), where Python would emit it raw and then fail to encode it as UTF-8.
 *
 * @param indent Spaces per level. Default is `2`.
 * @param level Nesting level of `value` itself, for embedding the result in a larger document
 *   (the first line is not indented). Default is `0`.
 * @throws TypeError for values JSON cannot hold (non-integer or non-finite numbers, functions,
 *   symbols, class instances other than `Map`/`RawJson`) and for circular references.
 * @example
 * ```ts
 * formatPythonJson({ ok: true, result: { ids: [1, 2], payload: new RawJson('{"a":1.0}') } });
 * // {
 * //   "ok": true,
 * //   "result": {
 * //     "ids": [
 * //       1,
 * //       2
 * //     ],
 * //     "payload": {
 * //       "a": 1.0
 * //     }
 * //   }
 * // }
 * ```
 */
export function formatPythonJson(value: unknown, indent = 2, level = 0): string {
  nonNegativeInteger(indent, 'indent');
  nonNegativeInteger(level, 'level');
  const unit = ' '.repeat(indent);
  const newlines: string[] = [];
  const newline = (depth: number): string => (newlines[depth] ??= '\n' + unit.repeat(depth));
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = new Set<object>();
  let pending: unknown = value;
  let hasPending = true;
  for (;;) {
    if (hasPending) {
      hasPending = false;
      const depth = level + stack.length;
      const frame = writeValue(pending, depth, newline, out);
      if (frame !== undefined) {
        if (open.has(frame.source)) throw new TypeError('Circular reference detected');
        open.add(frame.source);
        stack.push(frame);
      }
    }
    const top = stack[stack.length - 1];
    if (top === undefined) break;
    const depth = level + stack.length;
    if (top.kind === 'array' ? top.index < top.items.length : top.index < top.entries.length) {
      out.push(top.index === 0 ? newline(depth) : ',' + newline(depth));
      if (top.kind === 'array') {
        pending = top.items[top.index];
        if (pending === undefined) throw new TypeError('undefined is not JSON serializable');
      } else {
        const [key, member] = top.entries[top.index] as readonly [string, unknown];
        out.push(JSON.stringify(key), ': ');
        pending = member;
      }
      top.index++;
      hasPending = true;
    } else {
      stack.pop();
      open.delete(top.source);
      out.push(newline(depth - 1), top.kind === 'array' ? ']' : '}');
    }
  }
  return out.join('');
}

/** Writes a scalar, an empty container or a RawJson; returns a frame for a non-empty container. */
function writeValue(value: unknown, depth: number, newline: (depth: number) => string, out: string[]): Frame | undefined {
  switch (typeof value) {
    case 'string':
      // For well-formed strings JSON.stringify escapes exactly the characters Python escapes.
      out.push(JSON.stringify(value));
      return undefined;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return undefined;
    case 'bigint':
      out.push(value.toString());
      return undefined;
    case 'number':
      if (!Number.isInteger(value)) throw new TypeError(`${value} is not an integer; pass exact numbers as RawJson`);
      // Beyond 2^53 String() switches to exponent notation; BigInt prints every digit.
      out.push(Number.isSafeInteger(value) ? String(value) : BigInt(value).toString());
      return undefined;
    case 'object':
      break;
    default:
      throw new TypeError(`Object of type ${typeof value} is not JSON serializable`);
  }
  if (value === null) {
    out.push('null');
    return undefined;
  }
  if (isRawJson(value)) {
    appendReindented(value.text, depth, newline, out);
    return undefined;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push('[]');
      return undefined;
    }
    out.push('[');
    return { kind: 'array', source: value, items: value, index: 0 };
  }
  let entries: Array<readonly [string, unknown]>;
  if (value instanceof Map) {
    entries = [];
    for (const [key, member] of value as Map<unknown, unknown>) {
      if (typeof key !== 'string') throw new TypeError(`keys must be strings, not ${typeof key}`);
      if (member !== undefined) entries.push([key, member]);
    }
  } else {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new TypeError(`Object of type ${(value as object).constructor?.name ?? 'object'} is not JSON serializable`);
    }
    entries = Object.entries(value).filter(([, member]) => member !== undefined);
  }
  if (entries.length === 0) {
    out.push('{}');
    return undefined;
  }
  out.push('{');
  return { kind: 'object', source: value, entries, index: 0 };
}
