import { RawJson } from '../lossless/index.js';
import type { Checkpoint } from '../types.js';

/**
 * A checkpoint in the Python reference's snake_case record (its `as_dict()`, keys in that order):
 * the shape of a bundle item and of the CLI's output. `payload` is the stored canonical text
 * wrapped in {@link RawJson}, so writing it never goes through a JavaScript number.
 */
export interface CheckpointRecord {
  id: number;
  namespace: string;
  session_id: string;
  kind: string;
  name: string;
  payload: RawJson;
  payload_sha256: string;
  created_at: string;
  source_ref: string | null;
}

/**
 * The snake_case record of a checkpoint, built once for bundle export and CLI output alike.
 *
 * @example
 * ```ts
 * checkpointRecord(await store.get(1, { namespace: 'app' })).payload.text; // '{"n":1.0}'
 * ```
 */
export function checkpointRecord(checkpoint: Checkpoint): CheckpointRecord {
  return {
    id: checkpoint.id,
    namespace: checkpoint.namespace,
    session_id: checkpoint.sessionId,
    kind: checkpoint.kind,
    name: checkpoint.name,
    // payloadJson, not payload: the parsed object would turn 1.0 into 1 and round big integers.
    payload: new RawJson(checkpoint.payloadJson),
    payload_sha256: checkpoint.payloadSha256,
    created_at: checkpoint.createdAt,
    source_ref: checkpoint.sourceRef,
  };
}
