import { utf8ByteLength } from '@session-checkpoint/core';

/*
 * Plain JSON data as the saver handles it: equality by content, copies, sizes, and records keyed
 * by channel. Channel names are arbitrary strings ("constructor", "__proto__" are channels like any
 * other), so such records are read and written by own property only, never through
 * Object.prototype (`record.__proto__ = x` would replace the prototype instead of storing x).
 */

/**
 * Deep equality of JSON-like values (plain objects by key set, in any key order; arrays by
 * position). Values that share objects or strings compare at once: see docs/decisions/0014.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * A deep copy of parsed JSON data: `JSON.parse(JSON.stringify(value))` without the text in
 * between. An own `__proto__` key (which JSON.parse creates as a plain property) stays one.
 */
export function cloneJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(out, key, cloneJson((value as Record<string, unknown>)[key]));
  return out;
}

/** UTF-8 bytes of a JSON value's text. */
export function jsonBytes(value: unknown): number {
  return utf8ByteLength(JSON.stringify(value) ?? 'null');
}

/** The own property `key` of `record`, or `undefined`: never an inherited member such as `constructor`. */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets the own property `key` of `record`, also for `"__proto__"` (which assignment would take as the prototype). */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/** A record of a map's entries, each set with {@link setOwn}. */
export function recordOf<V>(map: Iterable<[string, V]>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const [k, v] of map) setOwn(out, k, v);
  return out;
}
