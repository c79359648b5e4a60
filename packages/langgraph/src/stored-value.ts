import { load } from '@langchain/core/load';
import { DeltaSnapshot, JsonPlusSerializer, type SerializerProtocol } from '@langchain/langgraph-checkpoint';
import { CheckpointValidationError, type JsonValue } from '@session-checkpoint/core';
import type { PartRef } from './row-payloads.js';
import { assertStorable } from './value-guard.js';

/**
 * A value as the saver stores it inside a checkpoint payload: the serializer's type tag with
 * either the parsed JSON it wrote (`j`: readable by the CLI and the Python tool) or, for binary
 * serializations, the bytes in base64 (`b64`).
 */
export interface StoredValue {
  /** The serializer's type tag, e.g. `"json"` or `"bytes"`. */
  t: string;
  j?: JsonValue;
  b64?: string;
  /** For a list value: the bytes of its serialized JSON (the snapshot size of the snapshot rule). */
  s?: number;
  /** A value too large for its row: the rows holding it in order (see `form`, and value-parts.ts). */
  parts?: PartRef[];
  /**
   * With `parts`: `"items"` when each part holds a slice of a list's items, `"j"` when the parts
   * join to JSON text, `"b64"` when to base64.
   */
  form?: 'j' | 'b64' | 'items';
  /**
   * With `form: "items"` for an object whose bulk is one list: the key of that list; `j` then
   * holds the rest of the object.
   */
  at?: string;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * LangGraph's own serializer, exactly: for it, plain JSON goes in and out unchanged, which lets
 * the saver skip a stringify/parse round trip per value. Subclasses may change that; they don't.
 *
 * @example
 * ```ts
 * isStockJsonPlus(new JsonPlusSerializer()); // true
 * ```
 */
export function isStockJsonPlus(serde: SerializerProtocol): boolean {
  return serde instanceof JsonPlusSerializer && Object.getPrototypeOf(serde) === JsonPlusSerializer.prototype;
}

/**
 * Serializes a value with `serde` after refusing what it would mangle (see {@link assertStorable}),
 * reading it before the promise is returned. Plain JSON data (plain objects, arrays, strings,
 * booleans, null, finite numbers) is what the stock serializer would write anyway, so it is copied
 * without the text in between. The result never shares an object with `value`: a later edit of the
 * caller's objects cannot change what was stored.
 *
 * @throws CheckpointValidationError naming `where` for a BigInt, NaN, Infinity, invalid Date or cycle.
 */
export async function storeValue(serde: SerializerProtocol, value: unknown, where: string): Promise<StoredValue> {
  const plain = assertStorable(value, where);
  if (plain && isStockJsonPlus(serde)) return { t: 'json', j: cloneJson(value) as JsonValue };
  const [t, bytes] = await serde.dumpsTyped(value);
  if (t === 'json') {
    try {
      return { t, j: JSON.parse(decoder.decode(bytes)) as JsonValue };
    } catch (error) {
      throw new CheckpointValidationError(`LangGraph value at ${where} did not serialize to JSON`, { cause: error });
    }
  }
  return { t, b64: Buffer.from(bytes).toString('base64') };
}

/** True when some object inside has an `lc` key: the marker of every value the serializer revives. */
function hasRevivable(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasRevivable);
  if (Object.hasOwn(value, 'lc')) return true;
  for (const key in value) if (hasRevivable((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * A deep copy of parsed JSON data (plain objects, arrays, primitives): the same result as
 * `JSON.parse(JSON.stringify(value))` without the text in between. An own `__proto__` key (which
 * JSON.parse creates as a plain property) stays a plain property.
 */
export function cloneJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = cloneJson((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out;
}

/**
 * Restores a value written by {@link storeValue}. `fresh` says whether `stored` was parsed for
 * this call alone: only then may plain JSON be handed out as it is instead of copied.
 */
export async function loadValue(serde: SerializerProtocol, stored: StoredValue, fresh = true): Promise<unknown> {
  return loadValueNow(serde, stored, fresh);
}

/** True for a promise (or any thenable): plain JSON data never holds a function. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * {@link loadValue} without a microtask where none is needed: plain JSON comes back as the value
 * itself, anything the serializer must revive as a promise of it. Tuples of a `list` page restore
 * several values each, so this keeps one await per value off the read path. `plain`, when given,
 * collects the stored values found free of revivable objects, so that a value serving many tuples
 * of one batch is walked once.
 */
export function loadValueNow(serde: SerializerProtocol, stored: StoredValue, fresh = true, plain?: Set<StoredValue>): unknown {
  if (stored.b64 !== undefined) return serde.loadsTyped(stored.t, new Uint8Array(Buffer.from(stored.b64, 'base64')));
  const j = stored.j ?? null;
  if (stored.t === 'json' && isStockJsonPlus(serde)) {
    if (plain?.has(stored) === true) return fresh ? j : cloneJson(j);
    if (!hasRevivable(j)) {
      plain?.add(stored);
      return fresh ? j : cloneJson(j);
    }
    if (Array.isArray(j) && j.every(isPlainLangChainObject)) return loadEach(j);
    // DeltaChannel's snapshot of a message list: the serializer revives its items, then wraps them.
    if (isDeltaSnapshotOfMessages(j)) return loadEach(j.value).then((items) => new DeltaSnapshot(items));
  }
  return serde.loadsTyped(stored.t, JSON.stringify(j));
}

/**
 * True for a LangChain serialized object (`{ lc: 1, type: "constructor", id: [...], kwargs }`, as
 * every message is stored) with nothing revivable inside it and no own `__proto__` key. For such
 * an item the stock serializer's reviver copies it unchanged and hands the copy's JSON to
 * LangChain's public `load`; a list of messages is therefore revived by `load` per item directly,
 * skipping the serializer's whole-list `JSON.stringify` + `JSON.parse` and its per-key async walk
 * (about a third of a `getTuple` of a long chat). stored-value.test.ts pins the equivalence
 * against the serializer itself, message kind by kind.
 */
function loadEach(items: readonly unknown[]): Promise<unknown[]> {
  return Promise.all(items.map((item) => load(JSON.stringify(item))));
}

/** `{ lc: 2, type: "delta_snapshot", value: [...] }` whose items are all {@link isPlainLangChainObject}. */
function isDeltaSnapshotOfMessages(j: unknown): j is { value: unknown[] } {
  if (typeof j !== 'object' || j === null || Array.isArray(j)) return false;
  const o = j as Record<string, unknown>;
  return o.lc === 2 && o.type === 'delta_snapshot' && !Object.hasOwn(o, '__proto__') && Array.isArray(o.value) && o.value.every(isPlainLangChainObject);
}

function isPlainLangChainObject(item: unknown): boolean {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
  const o = item as Record<string, unknown>;
  if (o.lc !== 1 || o.type !== 'constructor' || !Array.isArray(o.id)) return false;
  for (const key of Object.keys(o)) {
    // The reviver's `revivedObj[key] = ...` would turn an own `__proto__` into a prototype.
    if (key === '__proto__') return false;
    if (key !== 'lc' && hasRevivable(o[key])) return false;
  }
  return true;
}
