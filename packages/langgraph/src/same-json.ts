/**
 * Deep equality of JSON-like values (plain objects by key set, arrays by position), used for
 * metadata filters: `{ source: 'loop' }` or `{ parents: {} }` both compare by value.
 *
 * @example
 * ```ts
 * sameJson({ a: [1] }, { a: [1] }); // true
 * ```
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
