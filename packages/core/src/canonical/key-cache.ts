/**
 * A bounded cache of canonical key literals. Payloads repeat the same few keys (arrays of similar
 * records), and a Map lookup of an internalised property name is several times cheaper than
 * `JSON.stringify` of it. Only keys without surrogates are cached, so a hit also proves that plain
 * UTF-16 order is code point order for that key.
 */

const MAX_ENTRIES = 8192;
/** Longer keys are rare and would make the cache hold on to a lot of memory. */
const MAX_KEY_LENGTH = 128;
const cache = new Map<string, string>();
const SURROGATE = /[\ud800-\udfff]/;

/**
 * The canonical quoted form of a key without surrogates, or `undefined` when the key contains a
 * surrogate (paired or lone) and needs the careful path.
 *
 * @example
 * ```ts
 * quotedPlainKey('a"b'); // '"a\\"b"'
 * quotedPlainKey('😀');  // undefined
 * ```
 */
export function quotedPlainKey(key: string): string | undefined {
  let quoted = cache.get(key);
  if (quoted !== undefined) return quoted;
  if (SURROGATE.test(key)) return undefined;
  quoted = JSON.stringify(key);
  if (key.length > MAX_KEY_LENGTH) return quoted;
  // Clearing wholesale keeps the bound without LRU bookkeeping; refilling is cheap.
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, quoted);
  return quoted;
}
