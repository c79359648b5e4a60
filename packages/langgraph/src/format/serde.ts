import { load } from '@langchain/core/load';
import { DeltaSnapshot, JsonPlusSerializer, type SerializerProtocol } from '@langchain/langgraph-checkpoint';
import { CheckpointValidationError, DEFAULT_LIMITS, type JsonValue } from '@session-checkpoint/core';
import { cloneJson } from './json.js';
import { isObject, type StoredValue } from './payloads.js';

/*
 * Values through LangGraph's serializer, to the stored form of payloads.ts ({t, j} or {t, b64})
 * and back. The serializer turns some values into junk without an error (see the refusals below),
 * so every value is walked first and those are refused, naming the place. The only module of
 * format/ that loads LangChain: `./rows` never imports it (tools/lint/src/rows-imports.test.js).
 */

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * LangGraph's own serializer, exactly: for it, plain JSON goes in and out unchanged, which lets
 * the saver skip a stringify/parse round trip per value. Subclasses may change that.
 */
export function isStockJsonPlus(serde: SerializerProtocol): boolean {
  return serde instanceof JsonPlusSerializer && Object.getPrototypeOf(serde) === JsonPlusSerializer.prototype;
}

/**
 * Serializes a value with `serde` after refusing what it would mangle, reading it before the
 * promise is returned. Plain JSON data is copied without the text in between (the stock
 * serializer would write it unchanged). The result shares no object with `value`.
 *
 * @throws CheckpointValidationError naming `where` for a BigInt, NaN, Infinity, invalid Date or cycle.
 */
export async function storeValue(serde: SerializerProtocol, value: unknown, where: string): Promise<StoredValue> {
  const plain = assertStorable(value, where);
  if (plain && isStockJsonPlus(serde)) return { t: 'json', j: cloneJson(value) as JsonValue };
  const [t, bytes] = await serde.dumpsTyped(value);
  return t === 'json' ? { t, j: parseSerialized(bytes, where) } : { t, b64: Buffer.from(bytes).toString('base64') };
}

/** The JSON the serializer wrote. @throws CheckpointValidationError naming `where` when it is not JSON. */
export function parseSerialized(bytes: Uint8Array, where: string): JsonValue {
  try {
    return JSON.parse(decoder.decode(bytes)) as JsonValue;
  } catch (error) {
    throw new CheckpointValidationError(`LangGraph value at ${where} did not serialize to JSON`, { cause: error });
  }
}

/** True when some object inside has an `lc` key: the marker of every value the serializer revives. */
function hasRevivable(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasRevivable);
  if (Object.hasOwn(value, 'lc')) return true;
  for (const key in value) if (hasRevivable((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** True for a promise (or any thenable): plain JSON data never holds a function. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Restores a value written by {@link storeValue}: plain JSON as the value itself (no microtask on
 * the read path), anything the serializer must revive as a promise of it. `fresh`: `stored` was
 * parsed for this call alone, so plain JSON may go out uncopied. `plain` collects the values found
 * free of revivable objects, so that a value serving many tuples of a batch is walked once.
 * `textOf`: the JSON text of an item of a list of messages, when the caller keeps it (items of a
 * payload that never changes, read/parsed-payloads.ts); else each is stringified for `load`.
 */
export function loadValueNow(serde: SerializerProtocol, stored: StoredValue, fresh = true, plain?: Set<StoredValue>, textOf: (item: object) => string = JSON.stringify): unknown {
  if (stored.b64 !== undefined) return serde.loadsTyped(stored.t, new Uint8Array(Buffer.from(stored.b64, 'base64')));
  const j = stored.j ?? null;
  if (stored.t === 'json' && isStockJsonPlus(serde)) {
    if (plain?.has(stored) === true) return fresh ? j : cloneJson(j);
    if (!hasRevivable(j)) {
      plain?.add(stored);
      return fresh ? j : cloneJson(j);
    }
    if (Array.isArray(j) && j.every(isPlainLangChainObject)) return loadEach(j, textOf);
    // DeltaChannel's snapshot of a message list: the serializer revives its items, then wraps them.
    if (isDeltaSnapshotOfMessages(j)) return loadEach(j.value, textOf).then((items) => new DeltaSnapshot(items));
  }
  return serde.loadsTyped(stored.t, JSON.stringify(j));
}

/**
 * A list of LangChain serialized objects (messages) revived by LangChain's public `load` per item,
 * as the stock serializer's reviver would after copying each unchanged, without its whole-list
 * stringify and parse (about a third of a `getTuple` of a long chat, docs/decisions/0009);
 * serde.test.ts pins the equivalence against the serializer, message kind by kind.
 */
function loadEach(items: readonly unknown[], textOf: (item: object) => string): Promise<unknown[]> {
  return Promise.all(items.map((item) => load(textOf(item as object))));
}

/** `{ lc: 2, type: "delta_snapshot", value: [...] }` whose items are all {@link isPlainLangChainObject}. */
function isDeltaSnapshotOfMessages(o: unknown): o is { value: unknown[] } {
  return isObject(o) && o.lc === 2 && o.type === 'delta_snapshot' && !Object.hasOwn(o, '__proto__') && Array.isArray(o.value) && o.value.every(isPlainLangChainObject);
}

function isPlainLangChainObject(o: unknown): boolean {
  if (!isObject(o) || o.lc !== 1 || o.type !== 'constructor' || !Array.isArray(o.id)) return false;
  for (const key of Object.keys(o)) {
    // The reviver's `revivedObj[key] = ...` would turn an own `__proto__` into a prototype.
    if (key === '__proto__') return false;
    if (key !== 'lc' && hasRevivable(o[key])) return false;
  }
  return true;
}

/*
 * JsonPlusSerializer turns some values into junk without an error (a BigInt anywhere makes the
 * whole value "[unable to serialize, ...]"; NaN, Infinity and invalid Dates become null, a cycle
 * "[Circular]", an ArrayBuffer {}). This walk finds them first, following what JSON serialisation
 * visits (own enumerable properties, `toJSON()` results, Map and Set entries, typed arrays' elements),
 * so that they are refused naming the place, and stops at the store's nesting cap.
 */

/** Deepest value nesting walked: the store's default cap (no deeper payload can be stored anyway). */
export const MAX_VALUE_DEPTH = DEFAULT_LIMITS.maxDepth;

/** A step from a value into one of its parts: an array index, a property name, or a Map/Set slot. */
type Step = number | string | { slot: string };

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
  let at = where;
  for (const step of path) at += typeof step === 'number' ? `[${step}]` : typeof step === 'string' ? `.${step}` : `<${step.slot}>`;
  throw new CheckpointValidationError(`LangGraph value at ${at} is ${what ?? defaultWhat}, ${why}; ${hint}`);
}

/**
 * Throws `CheckpointValidationError` if `value` holds what the serializer would mangle (above) or
 * nests deeper than {@link MAX_VALUE_DEPTH}. `true` when it is plain JSON data (what JSON.parse
 * could have produced, -0 excepted), which serializing changes nothing in.
 */
export function assertStorable(value: unknown, where: string): boolean {
  return new Walk(where).value(value, 0);
}

/**
 * {@link assertStorable}, then the plain JSON that serialisation writes for `value`: itself, or
 * what its `toJSON(key)` returns when that is plain (every LangChain message), else `undefined`.
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
    if (depth >= MAX_VALUE_DEPTH) {
      throw new CheckpointValidationError(`LangGraph value at ${this.where} is nested deeper than ${MAX_VALUE_DEPTH} levels, which the store cannot hold; flatten it first (e.g. store a list instead of a chain)`);
    }
    const proto: unknown = Object.getPrototypeOf(value);
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON !== 'function') {
      if (Array.isArray(value)) return this.#enter(value) && this.#leave(this.#members(value, value.length, depth + 1));
      if (proto === Object.prototype || proto === null) return this.#enter(value) && this.#leave(this.#members(value, Object.keys(value), depth + 1));
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
    } else if (value instanceof Map || value instanceof Set) {
      let i = 0;
      for (const entry of value) {
        const slots: [string, unknown][] = value instanceof Map ? [['key', (entry as unknown[])[0]], ['value', (entry as unknown[])[1]]] : [['item', entry]];
        for (const [slot, v] of slots) {
          this.#path.push({ slot: `${slot} ${i}` });
          this.value(v, depth + 1);
          this.#path.pop();
        }
        i++;
      }
    } else {
      this.#members(value, Object.keys(value), depth + 1);
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

  /** Walks the members of an object (`keys`) or an array (`keys` its length); whether all were plain JSON. */
  #members(value: object, keys: readonly string[] | number, depth: number): boolean {
    let plain = true;
    this.#path.push('');
    const n = typeof keys === 'number' ? keys : keys.length;
    for (let i = 0; i < n; i++) {
      const key = typeof keys === 'number' ? i : (keys[i] as string);
      this.#path[this.#path.length - 1] = key;
      plain = this.value((value as Record<string | number, unknown>)[key], depth) && plain;
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
