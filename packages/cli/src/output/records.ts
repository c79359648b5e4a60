import type { Checkpoint, CheckpointStore, PreparedCheckpoint, SessionSummary } from '@session-checkpoint/core';
import { checkpointRecord } from '@session-checkpoint/core/internal';

/*
 * Core records are camelCase; the CLI speaks the Python reference's snake_case, with keys in the
 * reference's order (output is compared byte for byte by scripts and by the parity test).
 */

/** Whether a printed row is sealed, encrypted and verified (its seal, envelope and hash checked). */
export interface SealStatus {
  sealed: boolean;
  encrypted: boolean;
  verified: boolean;
}

/**
 * The seal status of every row a store hands out, or `undefined` for a store opened without keys
 * (whose output stays as it always was). A store opened with keys returns only rows whose seal,
 * envelope and hash passed (a plaintext row is refused), so each is sealed, encrypted and verified.
 *
 * @example
 * ```ts
 * checkpointJson(cp, { seal: sealStatus(store) }); // { ..., seal: { sealed: true, encrypted: true, verified: true } }
 * ```
 */
export function sealStatus(store: CheckpointStore): SealStatus | undefined {
  return store.keyIds === undefined ? undefined : { sealed: true, encrypted: true, verified: true };
}

/**
 * A checkpoint as the CLI prints it. The payload is embedded as its stored canonical text, so
 * `12345678901234567890` and `1.0` print exactly as stored.
 *
 * @param options.payload Include the payload. Default is `true`; `list` and `delete` omit it.
 * @param options.seal Add the row's seal status as `seal` (a store opened with keys). Default is none.
 * @example
 * ```ts
 * checkpointJson(cp, { payload: false }); // { id, namespace, session_id, kind, name, payload_sha256, created_at, source_ref }
 * ```
 */
export function checkpointJson(cp: Checkpoint, options: { payload?: boolean; seal?: SealStatus | undefined } = {}): Record<string, unknown> {
  // The bundle item's record: one snake_case shape for `get` and export. Dropping a key keeps the others' order.
  const record: Record<string, unknown> = { ...checkpointRecord(cp) };
  if (options.payload === false) delete record.payload;
  if (options.seal !== undefined) record.seal = options.seal;
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
