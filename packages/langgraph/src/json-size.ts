/*
 * A put may repeat a small unchanged value in its own row instead of linking to the row that holds
 * it (see `inlineCarriedBytes`), and must tell "small" without serialising: a 1 MB message list is
 * carried at most steps, and stringifying it to learn that it is large would cost more than the
 * link saves. This walk stops as soon as the budget is spent, so it costs O(budget) whatever the
 * value's size.
 */

/**
 * About the length of `value` as compact JSON when that is at most `budget`, else `undefined`.
 * Only plain JSON data counts (plain objects, arrays, strings, finite numbers, booleans, null):
 * anything else (a class instance, a Map, a bigint, undefined) is `undefined`, since the
 * serializer decides its stored form. Strings count their UTF-16 length plus quotes (escapes not
 * counted): it is an estimate for a size rule, not a limit check.
 *
 * @example
 * ```ts
 * jsonSizeWithin({ a: [1, 'xy'] }, 100); // 14
 * jsonSizeWithin('x'.repeat(200), 100);  // undefined
 * ```
 */
export function jsonSizeWithin(value: unknown, budget: number): number | undefined {
  const size = walk(value, budget);
  return size <= budget ? size : undefined;
}

/** The size so far, or `Infinity` once over `left` or on a value that is not plain JSON. */
function walk(value: unknown, left: number): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return Number.isFinite(value) ? String(value).length : Infinity;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      let size = 2;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          // A comma before every item but the first.
          size += walk(value[i], left - size) + (i > 0 ? 1 : 0);
          if (size > left) return Infinity;
        }
        return size;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return Infinity;
      const keys = Object.keys(value);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        // "key": and a comma before every member but the first.
        const head = key.length + 3 + (i > 0 ? 1 : 0);
        size += head + walk((value as Record<string, unknown>)[key], left - size - head);
        if (size > left) return Infinity;
      }
      return size;
    }
    default:
      return Infinity;
  }
}
