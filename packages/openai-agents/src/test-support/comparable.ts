/**
 * A value as a session stores it, for comparing two sessions' answers: what JSON keeps (array
 * holes and undefined entries as null, undefined members left out, -0 as 0), each `Uint8Array` as
 * `{ $u8: base64 }` (vitest compares a 1.5 MB array element by element for seconds), own
 * `__proto__` keys kept as data. Two answers are the same when their comparables are `toEqual`.
 *
 * @example
 * ```ts
 * comparable([1, , { a: undefined, b: new Uint8Array([1]) }]); // [1, null, { b: { $u8: 'AQ==' } }]
 * ```
 */
export function comparable(value: unknown): unknown {
  if (value instanceof Uint8Array) return { $u8: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  if (typeof value === 'number') return Object.is(value, -0) ? 0 : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) out.push(value[i] === undefined ? null : comparable(value[i]));
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry !== undefined) Object.defineProperty(out, key, { value: comparable(entry), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
