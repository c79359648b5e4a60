import { CheckpointValidationError } from '@session-checkpoint/core';

/*
 * Input files are bounded before anything parses them (at most cap + 1 bytes are ever read) and
 * decoded as strict UTF-8 with CPython's messages. Files go through the bundle package's reader,
 * which reads only regular files and names the path in every error; this module adds standard
 * input (`-`), the one way to pipe data in.
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
 * Reads a regular file, or standard input for `-`, as strict UTF-8 text of at most `maxBytes`
 * bytes. Standard input is read as a stream and reading stops as soon as the cap is passed.
 *
 * @throws CheckpointValidationError `payload-file exceeds the 8388608-byte input limit`,
 *   `'utf-8' codec can't decode byte 0xff in position 7: invalid start byte`, or
 *   `payload-file 'x' is a FIFO, not a regular file; ...`; Node system errors (ENOENT, EACCES,
 *   EISDIR) carrying the path.
 * @example
 * ```ts
 * const text = await readInputText('-', { maxBytes: 8_388_608, label: 'payload-file' });
 * ```
 */
export async function readInputText(path: string, options: ReadInputOptions): Promise<string> {
  const { decodeUtf8Strict, readCappedTextFile } = await import('@session-checkpoint/bundle/internal');
  if (path === '-') return decodeUtf8Strict(await readStdinBytes(options));
  return readCappedTextFile(path, options);
}
