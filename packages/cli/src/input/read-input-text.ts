import { CheckpointValidationError } from '@session-checkpoint/core';

/*
 * Input files are bounded before anything parses them (at most cap + 1 bytes are ever read) and
 * decoded as strict UTF-8 with CPython's messages. Files go through the bundle package's reader;
 * this module adds standard input (`-`) and names the file in errors that Node reports without
 * a path (reading a directory gives a bare EISDIR).
 */

/** Options of {@link readInputText}. */
export interface ReadInputOptions {
  /** Max bytes accepted; a file of exactly this size is fine. */
  maxBytes: number;
  /** Name used in messages, e.g. `payload-file` or `input`. */
  label: string;
}

async function readStdinBytes(options: ReadInputOptions): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of process.stdin) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += bytes.length;
      if (size > options.maxBytes) throw new CheckpointValidationError(`${options.label} exceeds the ${options.maxBytes}-byte input limit`);
      chunks.push(bytes);
    }
  } finally {
    // Stop reading a producer that keeps writing past the cap.
    process.stdin.destroy();
  }
  return Buffer.concat(chunks, size);
}

/**
 * Reads a file, or standard input for `-`, as strict UTF-8 text of at most `maxBytes` bytes.
 *
 * @throws CheckpointValidationError `payload-file exceeds the 8388608-byte input limit`, or
 *   `'utf-8' codec can't decode byte 0xff in position 7: invalid start byte`; Node system errors
 *   (ENOENT, EACCES, EISDIR) carrying the path.
 * @example
 * ```ts
 * const text = await readInputText('-', { maxBytes: 8_388_608, label: 'payload-file' });
 * ```
 */
export async function readInputText(path: string, options: ReadInputOptions): Promise<string> {
  const { decodeUtf8Strict, readCappedTextFile } = await import('@session-checkpoint/bundle/internal');
  if (path === '-') return decodeUtf8Strict(await readStdinBytes(options));
  try {
    return await readCappedTextFile(path, options);
  } catch (error) {
    if (error instanceof Error && typeof (error as { code?: unknown }).code === 'string' && (error as { path?: unknown }).path === undefined) {
      Object.assign(error, { path });
    }
    throw error;
  }
}
