import type { Checkpoint, CheckpointRow, JsonObject } from '../types.js';

/*
 * Records are built on every verified read, 20 to 500 per call, so their shape matters. The lazy
 * `payload` stays an own, enumerable, read-only accessor (spread, `Object.keys`, `JSON.stringify`
 * and test matchers see it as before), but one shared getter serves every record: an object
 * literal with its own `get payload()` closure made each record cost about 3.8 us (a runtime call
 * per accessor, a closure and its context per record, and the garbage they leave), against about
 * 0.1 us now (Node 20, 20 rows of ~350 bytes; docs/decisions/0006-cheaper-verified-read-path.md).
 *
 * The parsed value is kept on the record itself, under a non-enumerable symbol, not in a WeakMap
 * keyed by records: every WeakMap entry is an ephemeron the garbage collector must trace for
 * every short-lived record, and a list(100) of the LangGraph saver spent three times as long in
 * the collector with it (1,330-1,520 ms against 450-470 ms over the same reads; eighth pass).
 */

/** Where a record keeps its parsed payload: invisible to spread, `Object.keys`, JSON and matchers. */
const PARSED = Symbol('parsedPayload');

/** The one `payload` getter: `JSON.parse` of the record's verified text, once per record. */
function parsedPayload(this: Checkpoint): JsonObject {
  const kept = (this as unknown as Record<symbol, JsonObject | undefined>)[PARSED];
  if (kept !== undefined) return kept;
  // JSON.parse turns "__proto__" into an own property, never a prototype change.
  const parsed = JSON.parse(this.payloadJson) as JsonObject;
  // A record its holder froze before its first read keeps nothing: it parses on each access.
  if (Object.isExtensible(this)) Object.defineProperty(this, PARSED, { value: parsed });
  return parsed;
}

/** Shared by every record, so defining it reuses V8's cached shape transition. */
const PAYLOAD: PropertyDescriptor = { get: parsedPayload, enumerable: true, configurable: false };

/**
 * Builds the public record of a verified row. `payload` is parsed on first access only: callers
 * that need just the exact text (the CLI, export) never pay for `JSON.parse`.
 *
 * @example
 * ```ts
 * toCheckpoint(row).payload; // JSON.parse(row.payloadJson), parsed now and kept
 * ```
 */
export function toCheckpoint(row: CheckpointRow): Checkpoint {
  return toCheckpointWithId(row, row.id);
}

/**
 * {@link toCheckpoint} of a row inserted without its id (a prepared row) and the id the adapter
 * gave it: the same record, without first spreading the row into a copy that carries the id.
 */
export function toCheckpointWithId(row: Omit<CheckpointRow, 'id'>, id: number): Checkpoint {
  // Properties in the order of the `Checkpoint` interface, as the record has always listed them.
  const record = { id, namespace: row.namespace, sessionId: row.sessionId, kind: row.kind, name: row.name } as Record<string, unknown>;
  Object.defineProperty(record, 'payload', PAYLOAD);
  record.payloadJson = row.payloadJson;
  record.payloadSha256 = row.payloadSha256;
  record.createdAt = row.createdAt;
  record.sourceRef = row.sourceRef;
  return record as unknown as Checkpoint;
}
