/**
 * Record types shared by every package. Field names are camelCase here; the CLI and bundles
 * speak the Python reference's snake_case.
 */

/** Any JSON value, as JavaScript holds it (big integers may arrive as `bigint` through {@link canonicalize}). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object: the only payload shape a checkpoint accepts. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * A verified checkpoint, as every read of {@link CheckpointStore} returns it.
 *
 * @example
 * ```ts
 * const cp = await store.get(1, { namespace: 'app' });
 * cp.payloadJson;   // '{"n":12345678901234567890}', exactly as stored
 * cp.payload;       // the same, parsed with JSON.parse (big integers lose precision here)
 * ```
 */
export interface Checkpoint {
  /** Store-assigned id, positive, never reused within a store. */
  readonly id: number;
  /** Application namespace, e.g. `"default"`. */
  readonly namespace: string;
  /** Session (thread) the checkpoint belongs to. */
  readonly sessionId: string;
  /** Free-form kind token. Default is `"manual"`. */
  readonly kind: string;
  /** Human name. Default is `checkpoint_<created_at without - and :>`. */
  readonly name: string;
  /** The payload parsed with `JSON.parse` (keys sorted). Use `payloadJson` where numbers must stay exact. */
  readonly payload: JsonObject;
  /** The canonical payload text, exactly as stored and hashed. */
  readonly payloadJson: string;
  /** Lowercase hex SHA-256 of the UTF-8 bytes of `payloadJson`. */
  readonly payloadSha256: string;
  /** RFC 3339 UTC timestamp with whole seconds, e.g. `2026-08-08T07:30:00Z`. */
  readonly createdAt: string;
  /** Optional caller reference, unique within a namespace. `null` when absent. */
  readonly sourceRef: string | null;
}

/**
 * A row as an adapter stores it: the checkpoint without the parsed payload. Adapters pass these
 * through untouched; they never canonicalise, hash or verify.
 *
 * Rows read back from storage are untrusted: a tampered store can put any value in any column
 * (a BLOB payload, a number where text belongs). The store facade checks every field at run time.
 */
export interface CheckpointRow {
  id: number;
  namespace: string;
  sessionId: string;
  kind: string;
  name: string;
  payloadJson: string;
  payloadSha256: string;
  createdAt: string;
  sourceRef: string | null;
}

/** A row to insert. `id` is given only by import (explicit ids); otherwise the adapter assigns one. */
export type NewCheckpointRow = Omit<CheckpointRow, 'id'> & { id?: number };
