import type { Checkpoint, PreparedCheckpoint, SessionSummary } from '@session-checkpoint/core';
import { checkpointRecord } from '@session-checkpoint/core/internal';

/*
 * Core records are camelCase; the CLI speaks the Python reference's snake_case, with keys in the
 * reference's order (output is compared byte for byte by scripts and by the parity test).
 */

/**
 * A checkpoint as the CLI prints it. The payload is embedded as its stored canonical text, so
 * `12345678901234567890` and `1.0` print exactly as stored.
 *
 * @param options.payload Include the payload. Default is `true`; `list` and `delete` omit it.
 * @example
 * ```ts
 * checkpointJson(cp, { payload: false }); // { id, namespace, session_id, kind, name, payload_sha256, created_at, source_ref }
 * ```
 */
export function checkpointJson(cp: Checkpoint, options: { payload?: boolean } = {}): Record<string, unknown> {
  // The bundle item's record: one snake_case shape for `get` and export. Dropping a key keeps the others' order.
  const record: Record<string, unknown> = { ...checkpointRecord(cp) };
  if (options.payload === false) delete record.payload;
  return record;
}

/**
 * The dry-run plan of `create`, in the reference's key order.
 *
 * @example
 * ```ts
 * planJson(store.prepare(input)); // { namespace, session_id, kind, name, payload_sha256, payload_bytes, created_at, source_ref }
 * ```
 */
export function planJson(plan: PreparedCheckpoint): Record<string, unknown> {
  return {
    namespace: plan.namespace,
    session_id: plan.sessionId,
    kind: plan.kind,
    name: plan.name,
    payload_sha256: plan.payloadSha256,
    payload_bytes: plan.payloadBytes,
    created_at: plan.createdAt,
    source_ref: plan.sourceRef,
  };
}

/** One line of `sessions`: `{ session_id, count, latest_id, latest_created_at }`. */
export function sessionJson(summary: SessionSummary): Record<string, unknown> {
  return {
    session_id: summary.sessionId,
    count: summary.count,
    latest_id: summary.latestId,
    latest_created_at: summary.latestCreatedAt,
  };
}
