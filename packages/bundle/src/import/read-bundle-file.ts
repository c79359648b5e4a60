/**
 * Reading an import file under a byte cap: the cap is enforced while reading (at most cap + 1
 * bytes are ever read or allocated), before any decoding or parsing, as the reference does.
 */
import { open } from 'node:fs/promises';
import { CheckpointValidationError, type CheckpointLimits } from '@session-checkpoint/core';
import { decodeUtf8Strict } from './utf8-decode.js';

/** Options of {@link readCappedTextFile}. */
export interface ReadCappedOptions {
  /** Max bytes accepted; a file of exactly this size is fine. */
  maxBytes: number;
  /** Name used in the message, e.g. `input` or `payload-file`. */
  label: string;
}

/**
 * Reads a whole file as strict UTF-8 text, refusing files over `maxBytes` without reading them
 * further. Works for pipes and growing files too (it never trusts the size reported by stat).
 * File-system errors (missing file, permission) propagate unchanged as Node errors.
 *
 * @throws CheckpointValidationError `{label} exceeds the {maxBytes}-byte input limit`, or Python's
 *   UTF-8 decode message.
 * @example
 * ```ts
 * const text = await readCappedTextFile('payload.json', { maxBytes: 8_388_608, label: 'payload-file' });
 * ```
 */
export async function readCappedTextFile(path: string, options: ReadCappedOptions): Promise<string> {
  const { maxBytes, label } = options;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw new CheckpointValidationError('max_bytes must be a positive integer');
  const handle = await open(path, 'r');
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
