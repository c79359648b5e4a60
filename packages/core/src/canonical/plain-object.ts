/** What counts as a JSON object among JavaScript values. */

/**
 * True for objects whose prototype is `Object.prototype`, `null`, or another realm's
 * `Object.prototype` (whose own prototype is `null`). Date, Map, Set, class instances, boxed
 * primitives and typed arrays are not plain objects; arrays are checked separately by callers.
 *
 * @example
 * ```ts
 * isPlainObject({});                  // true
 * isPlainObject(Object.create(null)); // true
 * isPlainObject(new Map());           // false
 * ```
 */
export function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * True for a plain object that is not an array: the only shape a payload may have.
 *
 * @example
 * ```ts
 * isJsonObject({ a: 1 }); // true
 * isJsonObject([1]);      // false
 * ```
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && isPlainObject(value);
}
