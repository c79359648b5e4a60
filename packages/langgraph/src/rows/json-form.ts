import type { StoredValue } from '../stored-value.js';

/**
 * A stored value in its serialised JSON form: the JSON the serializer wrote (`j`, LangChain
 * objects as `{ lc: 1, type: "constructor", ... }`), or `{ $type, $base64 }` for a value it wrote
 * as bytes. Readers without the serializer cannot revive it; the JSON is what it would revive.
 */
export function jsonForm(stored: StoredValue): unknown {
  if (stored.b64 !== undefined) return { $type: stored.t, $base64: stored.b64 };
  return stored.j ?? null;
}
