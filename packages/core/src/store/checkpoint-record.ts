import type { Checkpoint, CheckpointRow, JsonObject } from '../types.js';

/*
 * Records are built on every verified read, 20 to 500 per call, so their shape matters. The lazy
 * `payload` stays an own, enumerable, read-only accessor (spread, `Object.keys`, `JSON.stringify`
 * and test matchers see it as before), but one shared getter serves every record: an object
 * literal with its own `get payload()` closure made each record cost about 3.8 us (a runtime call
 * per accessor, a closure and its context per record, and the garbage they leave), against about
 * 0.1 us now (Node 20, 20 rows of ~350 bytes; tools/bench/analysis.md).
 */

/** Parsed payloads by record, filled on first access only. */
const parsedPayloads = new WeakMap<object, JsonObject>();

/** The one `payload` getter: `JSON.parse` of the record's verified text, once per record. */
function parsedPayload(this: Checkpoint): JsonObject {
  let parsed = parsedPayloads.get(this);
  if (parsed === undefined) {
    // JSON.parse turns "__proto__" into an own property, never a prototype change.
    parsed = JSON.parse(this.payloadJson) as JsonObject;
    parsedPayloads.set(this, parsed);
  }
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
  // Properties in the order of the `Checkpoint` interface, as the record has always listed them.
  const record = { id: row.id, namespace: row.namespace, sessionId: row.sessionId, kind: row.kind, name: row.name } as Record<string, unknown>;
  Object.defineProperty(record, 'payload', PAYLOAD);
  record.payloadJson = row.payloadJson;
  record.payloadSha256 = row.payloadSha256;
  record.createdAt = row.createdAt;
  record.sourceRef = row.sourceRef;
  return record as unknown as Checkpoint;
}
