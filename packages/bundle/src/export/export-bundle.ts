/**
 * Export: every checkpoint of a namespace (or of the store) as a bundle in memory, each row
 * verified on the way out (one bad row fails the export, naming every bad row).
 */
import type { Checkpoint, CheckpointStore } from '@session-checkpoint/core';
import { checkpointRecord, nowTimestamp, SEALED_BUNDLE_FORMAT, validateToken } from '@session-checkpoint/core/internal';
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
  /**
   * A store opened with keys: export decrypted payloads, as a plain bundle (for moving data out of
   * a sealed store; the file then holds the plaintext). Default is `false`: a sealed store exports
   * its envelopes and session heads, and its bundle can only be read with its keys.
   */
  plaintext?: boolean;
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

/** The bundle fields that precede `checkpoints`, validated (without the seal section). */
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
 * Runs `read` over the store's rows to export: a plain store's verified checkpoints; a sealed
 * store's envelopes as stored (each verified) with the heads of their sessions, read in one
 * transaction under the seal lock so that rows and heads match (sealed writers wait meanwhile).
 */
export async function readExport<T>(
  store: CheckpointStore,
  header: Omit<ExportBundle, 'checkpoints'>,
  options: Pick<ExportOptions, 'plaintext'> & { batchSize?: number },
  read: (header: Omit<ExportBundle, 'checkpoints'>, rows: AsyncIterable<Checkpoint>) => Promise<T>,
): Promise<T> {
  const scope = { ...(header.namespace === null ? {} : { namespace: header.namespace }), ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }) };
  if (store.keyIds === undefined || options.plaintext === true) return read(header, store.scan(scope));
  return store.transaction(async (tx) => {
    const heads = await tx.sealHeads(header.namespace === null ? { all: true } : { namespace: header.namespace });
    return read({ ...header, session_checkpoint_seal: { format: SEALED_BUNDLE_FORMAT, heads } }, tx.scan({ ...scope, stored: true }));
  });
}

/**
 * Reads every checkpoint of a namespace, or of the whole store, by id ascending, verifying each,
 * into an {@link ExportBundle}. Prefer {@link writeBundleFile} for files: it streams instead of
 * holding the whole bundle. A store opened with keys exports its envelopes and session heads
 * (a sealed bundle), unless `plaintext: true`.
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
  return readExport(store, bundleHeader(options), options, async (header, rows) => {
    const checkpoints: ExportedCheckpoint[] = [];
    for await (const checkpoint of rows) {
      checkpoints.push(toExportedCheckpoint(checkpoint));
      options.onProgress?.({ phase: 'export', done: checkpoints.length, total: null });
    }
    return { ...header, checkpoints };
  });
}
