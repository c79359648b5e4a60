import { CheckpointValidationError, DEFAULT_LIMITS } from '@session-checkpoint/core';

/*
 * JsonPlusSerializer turns some values into junk without an error: a BigInt anywhere (also inside a
 * BigInt64Array) makes the whole value the string "[unable to serialize, ...]", NaN and Infinity
 * (also inside a Float64Array) become null, a cycle becomes "[Circular]", an invalid Date becomes
 * null, and an ArrayBuffer or DataView becomes {}. This walk finds them first, so `put` and
 * `putWrites` refuse them with an error naming the place and saying what to do instead, and nothing
 * is ever stored as junk. It follows what JSON serialisation visits: own enumerable properties,
 * `toJSON()` results, Map and Set entries, the elements of typed arrays; a Uint8Array is left alone
 * (the serializer keeps it). It stops at the store's default nesting cap, so a value nested
 * hundreds of thousands deep is refused instead of overflowing the stack.
 */

/** Deepest value nesting walked: the store's default cap (no deeper payload can be stored anyway). */
export const MAX_VALUE_DEPTH = DEFAULT_LIMITS.maxDepth;

/** A step from a value into one of its parts: an array index, a property name, or a Map/Set slot. */
type Step = number | string | { slot: string };

function describePath(where: string, path: readonly Step[]): string {
  let out = where;
  for (const step of path) out += typeof step === 'number' ? `[${step}]` : typeof step === 'string' ? `.${step}` : `<${step.slot}>`;
  return out;
}

/** What is refused, why, and what to do instead: each kind of value gets its own hint. */
const REFUSALS = {
  bigint: ['a BigInt', 'which the serializer cannot store faithfully', 'convert it first (e.g. to a string)'],
  nonFinite: ['', 'which the serializer would store as null', 'replace it first (e.g. by null or a string)'],
  invalidDate: ['an invalid Date', 'which the serializer would store as null', 'store a valid Date or null instead'],
  cycle: ['a circular reference', 'which the serializer would store as "[Circular]"', 'break the cycle first (e.g. keep an id instead of the object)'],
  bigintArray: ['', 'whose BigInts the serializer cannot store faithfully', 'convert it first (e.g. Array.from(value, String))'],
  rawBytes: ['', 'which the serializer would store as {} (its bytes lost)', 'wrap it in a Uint8Array first'],
} as const;

function refuse(where: string, path: readonly Step[], kind: keyof typeof REFUSALS, what?: string): never {
  const [defaultWhat, why, hint] = REFUSALS[kind];
  throw new CheckpointValidationError(`LangGraph value at ${describePath(where, path)} is ${what ?? defaultWhat}, ${why}; ${hint}`);
}

function tooDeep(where: string): never {
  throw new CheckpointValidationError(
    `LangGraph value at ${where} is nested deeper than ${MAX_VALUE_DEPTH} levels, which the store cannot hold; flatten it first (e.g. store a list instead of a chain)`,
  );
}

/**
 * Throws `CheckpointValidationError` if `value` holds a BigInt, a non-finite number, an invalid
 * Date, a cycle, a BigInt64Array or BigUint64Array, a non-finite element of a float array, an
 * ArrayBuffer or DataView, or nesting deeper than {@link MAX_VALUE_DEPTH}. Returns `true` when the
 * value is plain JSON data (plain objects, arrays, strings, booleans, null, finite numbers other
 * than -0): what JSON.parse could have produced, so serializing it changes nothing.
 *
 * @example
 * ```ts
 * assertStorable({ n: 1n }, "channel 'count'"); // throws: ... channel 'count'.n is a BigInt ...
 * assertStorable({ a: [1, 'x'] }, 'x');          // true
 * ```
 */
export function assertStorable(value: unknown, where: string): boolean {
  return new Walk(where).value(value, 0);
}

/**
 * {@link assertStorable}, then the plain JSON data that JSON serialisation writes for `value`: the
 * value itself when it is plain, or what its `toJSON(key)` returns when that is plain (every
 * LangChain message), else `undefined` (the serializer must decide). `key` is the one
 * `JSON.stringify` passes to `toJSON`: the index of a list item.
 *
 * @example
 * ```ts
 * plainJsonOf({ a: 1 }, "channel 'x'[0]");              // { json: { a: 1 } }
 * plainJsonOf(new HumanMessage('hi'), "channel 'x'[0]", '0'); // { json: { lc: 1, type: 'constructor', ... } }
 * plainJsonOf(new Map(), "channel 'x'[0]");             // undefined
 * ```
 */
export function plainJsonOf(value: unknown, where: string, key = ''): { json: unknown } | undefined {
  const walk = new Walk(where, key);
  return walk.value(value, 0) ? { json: value } : walk.shown;
}

/** One walk of a value: the path to the current part (for messages) and the objects on it (for cycles). */
class Walk {
  readonly #path: Step[] = [];
  readonly #ancestors: object[] = [];

  /** Set when the root value has a `toJSON()` whose result is plain JSON: that result. */
  shown: { json: unknown } | undefined;

  constructor(
    private readonly where: string,
    /** The key `toJSON` of the root value is called with, as JSON.stringify would. */
    private readonly rootKey = '',
  ) {}

  /** Walks `value` at nesting `depth`; returns whether everything seen was plain JSON. */
  value(value: unknown, depth: number): boolean {
    switch (typeof value) {
      case 'bigint':
        return refuse(this.where, this.#path, 'bigint');
      case 'number':
        if (!Number.isFinite(value)) refuse(this.where, this.#path, 'nonFinite', String(value));
        return !Object.is(value, -0);
      case 'string':
      case 'boolean':
        return true;
      case 'object':
        break;
      default:
        return false;
    }
    if (value === null) return true;
    if (depth >= MAX_VALUE_DEPTH) tooDeep(this.where);
    const proto: unknown = Object.getPrototypeOf(value);
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON !== 'function') {
      if (Array.isArray(value)) return this.#enter(value) && this.#leave(this.#array(value, depth + 1));
      if (proto === Object.prototype || proto === null) return this.#enter(value) && this.#leave(this.#object(value, depth + 1));
      if (ArrayBuffer.isView(value)) return this.#bytes(value);
      if (value instanceof ArrayBuffer) refuse(this.where, this.#path, 'rawBytes', 'an ArrayBuffer');
      if (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer) refuse(this.where, this.#path, 'rawBytes', 'a SharedArrayBuffer');
    }
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) refuse(this.where, this.#path, 'invalidDate');
      return false;
    }
    this.#enter(value);
    if (typeof toJSON === 'function') {
      // JSON serialisation writes what toJSON returns (a Buffer's {type, data}, a Date's text, ...).
      const json: unknown = depth === 0 ? toJSON.call(value, this.rootKey) : toJSON.call(value);
      if (json !== value && this.value(json, depth + 1) && depth === 0) this.shown = { json };
    } else if (value instanceof Map) {
      let i = 0;
      for (const [k, v] of value) {
        this.#path.push({ slot: `key ${i}` });
        this.value(k, depth + 1);
        this.#path[this.#path.length - 1] = { slot: `value ${i++}` };
        this.value(v, depth + 1);
        this.#path.pop();
      }
    } else if (value instanceof Set) {
      let i = 0;
      for (const v of value) {
        this.#path.push({ slot: `item ${i++}` });
        this.value(v, depth + 1);
        this.#path.pop();
      }
    } else {
      this.#object(value, depth + 1);
    }
    return this.#leave(false);
  }

  /** Typed arrays and DataViews: a Uint8Array is kept as bytes; other arrays become plain objects of their elements. */
  #bytes(view: ArrayBufferView): boolean {
    if (view instanceof Uint8Array) return false;
    const name = Object.prototype.toString.call(view).slice(8, -1);
    if (name === 'BigInt64Array' || name === 'BigUint64Array') refuse(this.where, this.#path, 'bigintArray', `a ${name}`);
    if (name === 'DataView') refuse(this.where, this.#path, 'rawBytes', 'a DataView');
    if (name.startsWith('Float')) {
      const numbers = view as unknown as ArrayLike<number>;
      for (let i = 0; i < numbers.length; i++) {
        const n = numbers[i] ?? 0;
        if (!Number.isFinite(n)) refuse(this.where, [...this.#path, i], 'nonFinite', String(n));
      }
    }
    return false;
  }

  #array(value: readonly unknown[], depth: number): boolean {
    let plain = true;
    this.#path.push(0);
    for (let i = 0; i < value.length; i++) {
      this.#path[this.#path.length - 1] = i;
      plain = this.value(value[i], depth) && plain;
    }
    this.#path.pop();
    return plain;
  }

  #object(value: object, depth: number): boolean {
    let plain = true;
    this.#path.push('');
    for (const key of Object.keys(value)) {
      this.#path[this.#path.length - 1] = key;
      plain = this.value((value as Record<string, unknown>)[key], depth) && plain;
    }
    this.#path.pop();
    return plain;
  }

  /** Marks `value` as being walked; refuses it when it is already (a cycle). Always `true`. */
  #enter(value: object): true {
    if (this.#ancestors.includes(value)) refuse(this.where, this.#path, 'cycle');
    this.#ancestors.push(value);
    return true;
  }

  /** Ends the walk of the latest entered value, passing its result through. */
  #leave(plain: boolean): boolean {
    this.#ancestors.pop();
    return plain;
  }
}
