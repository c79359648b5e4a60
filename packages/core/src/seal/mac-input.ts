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

/**
 * The bytes of `fields` in the encoding above.
 *
 * @example
 * ```ts
 * macInput(['session-checkpoint/row-seal/v1', 'app', null, 3]);
 * ```
 */
export function macInput(fields: readonly MacField[]): Uint8Array {
  const Buffer = nodeBuffer();
  const parts: Uint8Array[] = [];
  let length = 0;
  for (const field of fields) {
    const bytes = field === null ? undefined : field instanceof Uint8Array ? field : Buffer.from(typeof field === 'number' ? String(field) : field, 'utf8');
    const prefix = new Uint8Array(4);
    new DataView(prefix.buffer).setUint32(0, bytes === undefined ? NULL_LENGTH : bytes.length);
    parts.push(prefix);
    length += 4;
    if (bytes !== undefined) {
      parts.push(bytes);
      length += bytes.length;
    }
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
