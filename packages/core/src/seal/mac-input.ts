/**
 * The one encoding of everything a seal, a head or an associated-data block covers: a list of
 * fields, each written as a 4-byte big-endian length followed by its UTF-8 bytes, and `null` as
 * the length 0xFFFFFFFF with no bytes. The first field is always a domain tag (which structure,
 * which version), so no two structures share an input, and the length prefixes make the encoding
 * injective: no two different lists of fields give the same bytes, whatever the fields contain
 * (`["a:b", "c"]` and `["a", "b:c"]` differ), which is what "canonical, unambiguous" asks of a MAC input.
 */
import { nodeBuffer } from './node-builtins.js';

/** A field: text, bytes (a tag, a nonce), a whole number, or absent. */
export type MacField = string | Uint8Array | number | null;

const NULL_LENGTH = 0xffff_ffff;

/** What is used of a Node `Buffer` here: one allocation, then writes in place. */
interface WritableBytes extends Uint8Array {
  write(text: string, offset: number, encoding: 'utf8'): number;
  writeUInt32BE(value: number, offset: number): number;
}

/**
 * The bytes of `fields` in the encoding above: written into one buffer (this runs several times
 * per sealed write and read).
 *
 * @example
 * ```ts
 * macInput(['session-checkpoint/row-seal/v1', 'app', null, 3]);
 * ```
 */
export function macInput(fields: readonly MacField[]): Uint8Array {
  const Buffer = nodeBuffer() as unknown as { byteLength(text: string, encoding: 'utf8'): number; allocUnsafe(size: number): WritableBytes };
  let length = 4 * fields.length;
  for (const field of fields) {
    if (field === null) continue;
    length += field instanceof Uint8Array ? field.length : Buffer.byteLength(typeof field === 'number' ? String(field) : field, 'utf8');
  }
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (const field of fields) {
    if (field === null) {
      out.writeUInt32BE(NULL_LENGTH, at);
      at += 4;
    } else if (field instanceof Uint8Array) {
      out.writeUInt32BE(field.length, at);
      out.set(field, at + 4);
      at += 4 + field.length;
    } else {
      const written = out.write(typeof field === 'number' ? String(field) : field, at + 4, 'utf8');
      out.writeUInt32BE(written, at);
      at += 4 + written;
    }
  }
  return out;
}
