/**
 * Export: every checkpoint of a namespace (or of the store) as a bundle in memory, each row
 * verified on the way out (one bad row fails the export, naming every bad row).
 */
import { CheckpointConflictError, type Checkpoint, type CheckpointStore } from '@session-checkpoint/core';
import { checkpointRecord, nowTimestamp, SEALED_BUNDLE_FORMAT, validateToken } from '@session-checkpoint/core/toolkit';
import { EXPORT_SCHEMA, STORE_SCHEMA_VERSION, type ExportBundle, type ExportedCheckpoint, type SealSection } from '../bundle-format.js';
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

/** The bundle fields that precede `checkpoints`, validated. */
export function bundleHeader(options: Pick<ExportOptions, 'namespace' | 'now'>): Omit<ExportBundle, 'checkpoints' | 'session_checkpoint_seal'> {
  const namespace = options.namespace === undefined ? null : validateToken(options.namespace, 'namespace');
  return {
    schema: EXPORT_SCHEMA,
    store_schema_version: STORE_SCHEMA_VERSION,
    exported_at: nowTimestamp(options.now?.()),
    namespace,
  };
}

/** Tries of a sealed export whose sessions were written to while it read them. */
const SEALED_EXPORT_TRIES = 3;

/** The export read sessions that a writer changed meanwhile: the bundle would not match its heads. */
class ChangedDuringExport extends CheckpointConflictError {}

/**
 * Runs `consume` over the rows to export; `seal()`, called after the last row, gives the seal
 * section that goes after them: none for a plain store (its verified checkpoints), the heads of
 * the exported sessions for a sealed store (its envelopes as stored, each verified). Nothing is
 * locked: the heads are read before and after the rows, and every sealed write to a session changes
 * its head, so equal heads prove the rows read are the ones they describe. When a writer changed
 * one meanwhile, `seal()` throws; {@link retryExport} runs the whole export again.
 */
export async function readExport<T>(
  store: CheckpointStore,
  header: Omit<ExportBundle, 'checkpoints' | 'session_checkpoint_seal'>,
  options: Pick<ExportOptions, 'plaintext'> & { batchSize?: number },
  consume: (rows: AsyncIterable<Checkpoint>, seal: () => Promise<SealSection | undefined>) => Promise<T>,
): Promise<T> {
  const scope = { ...(header.namespace === null ? {} : { namespace: header.namespace }), ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }) };
  if (store.keyIds === undefined || options.plaintext === true) return consume(store.scan(scope), async () => undefined);
  const heads = () => store.sealHeads(header.namespace === null ? { all: true } : { namespace: header.namespace });
  const before = await heads();
  return consume(store.scan({ ...scope, stored: true }), async () => {
    const after = await heads();
    if (after.length !== before.length || after.some((head, i) => head !== before[i])) {
      throw new ChangedDuringExport(`The store's sessions changed while they were exported (${SEALED_EXPORT_TRIES} tries): export again`);
    }
    return { format: SEALED_BUNDLE_FORMAT, heads: after };
  });
}

/** Runs a whole export again, up to three times, when writers changed its sessions meanwhile. */
export async function retryExport<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof ChangedDuringExport) || attempt >= SEALED_EXPORT_TRIES) throw error;
    }
  }
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
  const header = bundleHeader(options);
  return retryExport(() => readExport(store, header, options, async (rows, seal) => {
    const checkpoints: ExportedCheckpoint[] = [];
    for await (const checkpoint of rows) {
      checkpoints.push(toExportedCheckpoint(checkpoint));
      options.onProgress?.({ phase: 'export', done: checkpoints.length, total: null });
    }
    const section = await seal();
    return { ...header, checkpoints, ...(section === undefined ? {} : { session_checkpoint_seal: section }) };
  }));
}
