/**
 * Strict UTF-8 decoding with Python's error text. The bytes are decoded by the native decoder;
 * only when it refuses do we scan for the first bad sequence to say where and why, the way
 * CPython's codec does (maximal invalid subpart, Unicode table 3-7).
 */
import { CheckpointValidationError } from '@session-checkpoint/core';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Valid range of the second byte for each lead byte; later continuation bytes are always 80..BF. */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/**
 * Python's `UnicodeDecodeError` text for the first invalid sequence of `bytes`, or `undefined`
 * when the bytes are valid UTF-8.
 *
 * @example
 * ```ts
 * utf8ErrorMessage(Buffer.from([0x61, 0xff])); // "'utf-8' codec can't decode byte 0xff in position 1: invalid start byte"
 * ```
 */
export function utf8ErrorMessage(bytes: Uint8Array): string | undefined {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const length = sequenceLength(lead);
    if (length === 0) return message(bytes, i, i + 1, 'invalid start byte');
    for (let k = 1; k < length; k++) {
      if (i + k >= n) return message(bytes, i, n, 'unexpected end of data');
      const [lo, hi] = k === 1 ? secondByteRange(lead) : [0x80, 0xbf];
      const b = bytes[i + k] as number;
      if (b < lo || b > hi) return message(bytes, i, i + k, 'invalid continuation byte');
    }
    i += length;
  }
  return undefined;
}

function message(bytes: Uint8Array, start: number, end: number, reason: string): string {
  if (end - start === 1) {
    return `'utf-8' codec can't decode byte 0x${(bytes[start] as number).toString(16).padStart(2, '0')} in position ${start}: ${reason}`;
  }
  return `'utf-8' codec can't decode bytes in position ${start}-${end - 1}: ${reason}`;
}

/**
 * Decodes UTF-8 strictly: any invalid sequence is an error, and a BOM is kept as U+FEFF (so the
 * JSON reader reports it as Python does) rather than silently dropped.
 *
 * @throws CheckpointValidationError with Python's message, e.g.
 *   `'utf-8' codec can't decode byte 0xff in position 7: invalid start byte`.
 * @example
 * ```ts
 * decodeUtf8Strict(new Uint8Array([0x7b, 0x7d])); // '{}'
 * ```
 */
export function decodeUtf8Strict(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch (error) {
    throw new CheckpointValidationError(utf8ErrorMessage(bytes) ?? 'input is not valid UTF-8', { cause: error });
  }
}
