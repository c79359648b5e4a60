/*
 * Channel names are arbitrary strings: "constructor", "toString" or "__proto__" are channels like
 * any other. Records keyed by channel are therefore read and written by own property only, never
 * through Object.prototype (`record.constructor` would be Object, `record.__proto__ = x` would
 * replace the prototype instead of storing x).
 */

/**
 * The own property `key` of `record`, or `undefined`: never an inherited member.
 *
 * @example
 * ```ts
 * own({}, 'constructor'); // undefined (plain `{}['constructor']` is Object)
 * ```
 */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Sets the own property `key` of `record`, also for `"__proto__"` (which plain assignment would
 * take as the prototype).
 *
 * @example
 * ```ts
 * const values = {};
 * setOwn(values, '__proto__', 1); // Object.keys(values) is ['__proto__']
 * ```
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}
