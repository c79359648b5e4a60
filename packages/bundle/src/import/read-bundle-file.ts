/**
 * Reading an import file under a byte cap: the cap is enforced while reading (at most cap + 1
 * bytes are ever read or allocated), before any decoding or parsing, as the reference does.
 * Only regular files are read: a FIFO would block forever, a device never ends, a socket cannot
 * be opened. The type is checked on what was actually opened (fstat), and the open itself does
 * not block (O_NONBLOCK), so swapping the file for a FIFO after a check cannot hang the reader.
 */
import { constants, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { CheckpointValidationError, type CheckpointLimits } from '@session-checkpoint/core';
import { positiveInteger, pythonRepr as quote } from '@session-checkpoint/core/toolkit';
import { fileKind, namingPath } from '../export/file-kind.js';
import { decodeUtf8Strict } from './utf8-decode.js';

/** Options of {@link readCappedTextFile}. */
export interface ReadCappedOptions {
  /** Max bytes accepted; a file of exactly this size is fine. */
  maxBytes: number;
  /** Name used in the message, e.g. `input` or `payload-file`. */
  label: string;
}

/** A directory fails like Python's `open()` (`[Errno 21] Is a directory`); anything else not regular is refused by kind. */
function refuseNonRegular(stats: Stats, path: string, label: string): never {
  if (stats.isDirectory()) {
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${path}'`), { code: 'EISDIR', errno: -21, syscall: 'read', path });
  }
  throw new CheckpointValidationError(
    `${label} ${quote(path)} is a ${fileKind(stats)}, not a regular file; only regular files (or - for standard input) are read`,
  );
}

/** Opens a regular file for reading without ever blocking on a FIFO or device. */
async function openRegularFile(path: string, label: string): Promise<FileHandle> {
  // A first look avoids even opening a device (opening some has side effects).
  const seen = await stat(path).catch(() => undefined);
  if (seen !== undefined && !seen.isFile()) refuseNonRegular(seen, path, label);
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    // ENXIO: a socket (or a FIFO without writer opened for writing); name the kind if we can.
    const now = await stat(path).catch(() => undefined);
    if (now !== undefined && !now.isFile()) refuseNonRegular(now, path, label);
    throw namingPath(error, path);
  }
  try {
    // What was opened is what counts: the path may have been swapped since the first look.
    const opened = await handle.stat();
    if (!opened.isFile()) refuseNonRegular(opened, path, label);
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Reads a whole regular file as strict UTF-8 text, refusing files over `maxBytes` without reading
 * them further (it never trusts the size reported by stat, so a growing file is capped too).
 * FIFOs, sockets and devices are refused at once, without blocking. File-system errors
 * (missing file, permission, directory) propagate as Node errors that name the path.
 *
 * @throws CheckpointValidationError `{label} exceeds the {maxBytes}-byte input limit`, Python's
 *   UTF-8 decode message, or `{label} 'x' is a FIFO, not a regular file; ...`.
 * @example
 * ```ts
 * const text = await readCappedTextFile('payload.json', { maxBytes: 8_388_608, label: 'payload-file' });
 * ```
 */
export async function readCappedTextFile(path: string, options: ReadCappedOptions): Promise<string> {
  const { maxBytes, label } = options;
  positiveInteger(maxBytes, 'max_bytes');
  const handle = await openRegularFile(path, label);
  try {
    const { size } = await handle.stat();
    // Start from the reported size (+1 to detect growth) but never beyond cap + 1.
    let buffer = Buffer.allocUnsafe(Math.min(Math.max(size, 0), maxBytes) + 1);
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) {
        if (buffer.length > maxBytes) break;
        const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(grown, 0, 0, filled);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes) throw new CheckpointValidationError(`${label} exceeds the ${maxBytes}-byte input limit`);
    return decodeUtf8Strict(buffer.subarray(0, filled));
  } catch (error) {
    throw namingPath(error, path);
  } finally {
    await handle.close();
  }
}

/**
 * Reads an import bundle file: at most `limits.maxImportFileBytes` bytes (default 33554432),
 * strict UTF-8. Parse the result with {@link parseBundle} or pass it to {@link importBundle}.
 *
 * @throws CheckpointValidationError `input exceeds the 33554432-byte input limit` or a UTF-8 error.
 * @example
 * ```ts
 * const text = await readBundleFile('export.json', store.limits);
 * const result = await importBundle(store, text, { apply: true });
 * ```
 */
export async function readBundleFile(path: string, limits: Pick<CheckpointLimits, 'maxImportFileBytes'>): Promise<string> {
  return readCappedTextFile(path, { maxBytes: limits.maxImportFileBytes, label: 'input' });
}
