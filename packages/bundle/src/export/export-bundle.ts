/**
 * Export: every checkpoint of a namespace (or of the store) as a bundle in memory, each row
 * verified on the way out (one bad row fails the export, naming every bad row).
 */
import type { Checkpoint, CheckpointStore } from '@session-checkpoint/core';
import { checkpointRecord, nowTimestamp, validateToken } from '@session-checkpoint/core/internal';
import { EXPORT_SCHEMA, STORE_SCHEMA_VERSION, type ExportBundle, type ExportedCheckpoint } from '../bundle-format.js';
import type { ProgressListener } from '../progress.js';

/** Options of {@link exportBundle}. */
export interface ExportOptions {
  /** Only this namespace. Default is the whole store (`namespace: null` in the bundle). */
  namespace?: string;
  /** Clock for `exported_at`. Default is `() => new Date()`. */
  now?: () => Date;
  /** Called after each checkpoint with phase `export`. Default is none. */
  onProgress?: ProgressListener;
}

/**
 * A checkpoint in the bundle's item layout (`as_dict()` order), payload as its exact stored text.
 *
 * @example
 * ```ts
 * toExportedCheckpoint(await store.get(1, { namespace: 'app' })).payload.text; // '{"n":1.0}'
 * ```
 */
export function toExportedCheckpoint(checkpoint: Checkpoint): ExportedCheckpoint {
  return checkpointRecord(checkpoint);
}

/** The bundle fields that precede `checkpoints`, validated. */
export function bundleHeader(options: Pick<ExportOptions, 'namespace' | 'now'>): Omit<ExportBundle, 'checkpoints'> {
  const namespace = options.namespace === undefined ? null : validateToken(options.namespace, 'namespace');
  return {
    schema: EXPORT_SCHEMA,
    store_schema_version: STORE_SCHEMA_VERSION,
    exported_at: nowTimestamp(options.now?.()),
    namespace,
  };
}

/**
 * Reads every checkpoint of a namespace, or of the whole store, by id ascending, verifying each,
 * into an {@link ExportBundle}. Prefer {@link writeBundleFile} for files: it streams instead of
 * holding the whole bundle.
 *
 * @throws CheckpointIntegrityError naming every row that fails verification (nothing is returned).
 * @throws CheckpointValidationError for a malformed namespace.
 * @example
 * ```ts
 * const bundle = await exportBundle(store, { namespace: 'app' });
 * const text = serializeBundle(bundle); // what the Python reference would write
 * ```
 */
export async function exportBundle(store: CheckpointStore, options: ExportOptions = {}): Promise<ExportBundle> {
  const header = bundleHeader(options);
  const checkpoints: ExportedCheckpoint[] = [];
  const scan = store.scan(header.namespace === null ? {} : { namespace: header.namespace });
  for await (const checkpoint of scan) {
    checkpoints.push(toExportedCheckpoint(checkpoint));
    options.onProgress?.({ phase: 'export', done: checkpoints.length, total: null });
  }
  return { ...header, checkpoints };
}
