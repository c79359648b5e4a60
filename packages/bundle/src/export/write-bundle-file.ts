/**
 * Export to a file: streamed item by item into an atomically replaced, owner-only file. Memory
 * stays bounded by one formatted checkpoint plus a write buffer, whatever the store size.
 */
import type { CheckpointStore } from '@session-checkpoint/core';
import { EXPORT_SCHEMA } from '../bundle-format.js';
import type { ProgressListener } from '../progress.js';
import { writeFileAtomic } from './atomic-file.js';
import { bundleHeader, readExport, retryExport, toExportedCheckpoint } from './export-bundle.js';
import { bundleTextHead, bundleTextItem, bundleTextTail } from './serialize-bundle.js';
import { prepareExportTarget } from './store-path-guard.js';

/** Options of {@link writeBundleFile}. */
export interface WriteBundleFileOptions {
  /** Only this namespace. Default is the whole store. */
  namespace?: string;
  /** Path of the store file; the export refuses to overwrite it or its -wal/-shm/-journal files. Default is no check (e.g. PostgreSQL). */
  storePath?: string;
  /** Clock for `exported_at`. Default is `() => new Date()`. */
  now?: () => Date;
  /** Called after each checkpoint with phase `export`. Default is none. */
  onProgress?: ProgressListener;
  /** A store opened with keys: write decrypted payloads, a plain bundle. Default is `false` (see `ExportOptions.plaintext`). */
  plaintext?: boolean;
}

/** What {@link writeBundleFile} reports (the CLI's `export` result). */
export interface WriteBundleFileResult {
  schema: typeof EXPORT_SCHEMA;
  /** Absolute path written (the parent directory's real path plus the file name). */
  output: string;
  /** Checkpoints written. */
  checkpoints: number;
}

/** Rows per read: small enough that a batch of 1 MiB payloads stays modest, large enough to amortise queries. */
const SCAN_BATCH = 100;

/** Chunks are gathered up to this size before a write call. */
const WRITE_BUFFER_CHARS = 1 << 20;

/**
 * Exports a namespace, or the whole store, to `outputPath` in the reference's file layout. The
 * file is replaced atomically (never left half-written, mode 0600), missing parent directories
 * are created, and if any row fails verification nothing is written. Only a regular file is
 * replaced: a device, FIFO, socket, directory, a symlink as the last component, and the store
 * with its companion files are refused before anything is read (see {@link prepareExportTarget}).
 * On any failure the output and the directories around it are left as they were.
 *
 * @throws CheckpointValidationError for a refused output, e.g. `Export output must not overwrite the checkpoint store`.
 * @throws CheckpointIntegrityError naming every bad row (the output file is left untouched).
 * @example
 * ```ts
 * const result = await writeBundleFile(store, 'backup/app.json', { namespace: 'app', storePath: 'app.sqlite' });
 * // { schema: 'ellmos.session-checkpoint-export.v1', output: '/abs/backup/app.json', checkpoints: 12 }
 * ```
 */
export async function writeBundleFile(
  store: CheckpointStore,
  outputPath: string,
  options: WriteBundleFileOptions = {},
): Promise<WriteBundleFileResult> {
  const header = bundleHeader(options);
  const target = await prepareExportTarget(outputPath, options.storePath === undefined ? {} : { storePath: options.storePath });
  const output = target.path;
  let count = 0;
  const produce = (write: (chunk: string) => Promise<void>): Promise<void> =>
    readExport(store, header, { ...options, batchSize: SCAN_BATCH }, async (rows, seal) => {
      count = 0;
      let buffer = bundleTextHead(header);
      for await (const checkpoint of rows) {
        buffer += bundleTextItem(toExportedCheckpoint(checkpoint), count === 0);
        count++;
        if (buffer.length >= WRITE_BUFFER_CHARS) {
          await write(buffer);
          buffer = '';
        }
        options.onProgress?.({ phase: 'export', done: count, total: null });
      }
      await write(buffer + bundleTextTail(count === 0, await seal()));
    });
  try {
    // A sealed export read while its sessions changed is written again from the start (a new temp file).
    await retryExport(() => writeFileAtomic(output, produce, { expected: target.existing }));
  } catch (error) {
    await target.undo();
    throw error;
  }
  return { schema: EXPORT_SCHEMA, output, checkpoints: count };
}
