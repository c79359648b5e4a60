/**
 * The bundle format `ellmos.session-checkpoint-export.v1`, shared with the Python reference
 * (PYTHON_REFERENCE.md section 8). Field names are the reference's snake_case: they are the wire format.
 */
import type { CheckpointRecord } from '@session-checkpoint/core/toolkit';

/** The `schema` value of every bundle. */
export const EXPORT_SCHEMA = 'ellmos.session-checkpoint-export.v1';

/** The `store_schema_version` value of every bundle (the v1 store schema). */
export const STORE_SCHEMA_VERSION = 1;

/** Item fields in the reference's `as_dict()` order, which is the order bundles are written in. */
export const CHECKPOINT_FIELDS = [
  'id',
  'namespace',
  'session_id',
  'kind',
  'name',
  'payload',
  'payload_sha256',
  'created_at',
  'source_ref',
] as const;

/** One item field name. */
export type CheckpointField = (typeof CHECKPOINT_FIELDS)[number];

/**
 * One exported checkpoint: the reference's snake_case record (core's `CheckpointRecord`, also what
 * the CLI prints). `payload` is the stored canonical text wrapped in `RawJson`, so writing it never
 * goes through a JavaScript number.
 */
export type ExportedCheckpoint = CheckpointRecord;

/**
 * An export bundle in memory, keys in the order they are written.
 *
 * @example
 * ```ts
 * const bundle = await exportBundle(store, { namespace: 'app' });
 * bundle.checkpoints.map((c) => c.id); // ascending ids
 * ```
 */
export interface ExportBundle {
  schema: typeof EXPORT_SCHEMA;
  store_schema_version: typeof STORE_SCHEMA_VERSION;
  /** When the export ran: UTC, whole seconds, `YYYY-MM-DDTHH:MM:SSZ`. */
  exported_at: string;
  /** The exported namespace, or `null` for a whole-store export. */
  namespace: string | null;
  /** Verified checkpoints by id ascending. */
  checkpoints: ExportedCheckpoint[];
  /**
   * A sealed export only (a store opened with keys), after `checkpoints`: the heads of the
   * exported sessions, so that an importer with the keys can check every chain; the checkpoints
   * are then envelopes. The Python tool ignores this key (it ignores unknown top-level keys).
   * Absent otherwise.
   */
  session_checkpoint_seal?: SealSection;
}

/** The seal section of a sealed bundle. */
export interface SealSection {
  /** `session-checkpoint.seal.v1`. */
  format: string;
  /** Each exported session's head, as the store keeps it (a JSON text holding its MAC). */
  heads: string[];
}

/** The top-level key of a sealed bundle's seal section. */
export const SEAL_SECTION_KEY = 'session_checkpoint_seal';
