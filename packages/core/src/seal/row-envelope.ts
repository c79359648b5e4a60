/**
 * The envelope a sealed row stores as its payload: itself a canonical JSON object, so the Python
 * tool lists, exports, imports and hash-checks it like any payload (it sees the envelope, never
 * the plaintext).
 *
 * ```json
 * {"ct":"…","iv":"…","key":"k1","link":"…","prev":"…","seal":"…","sealed":1,"zip":"deflate"}
 * ```
 *
 * - `ct`: AES-256-GCM ciphertext of the canonical payload text (UTF-8, raw-deflated first when
 *   `zip` is present), then its 16-byte tag; `iv`: the random 96-bit nonce of that encryption.
 *   The associated data is the row's identity (its id, namespace, session id, kind, name,
 *   created_at and source ref), its key id and its link, so an envelope moved to any other row
 *   fails to decrypt.
 * - `link`: a random 96-bit id of the row in its session's chain, fixed for its life (a rotation
 *   re-seals the row and keeps it). `prev`: the link of the row before it in the chain (`null`
 *   for the first).
 * - `seal`: HMAC-SHA256 (first 128 bits) over the identity, key id, link, prev, nonce, GCM tag and
 *   `zip`: a well-formed edit of any column (the id included), a row copied or swapped to another
 *   id, session, namespace or place in the chain fails it.
 *
 * Binary fields are base64url without padding. Keys appear in code point order and values need no
 * escaping, so the text built here is exactly its canonical form.
 */
import { sha256Hex } from '../sha256.js';
import type { CheckpointRow } from '../types.js';
import type { DerivedKey, Keyring } from './keyring.js';
import { derivedKey } from './keyring.js';
import { macInput, type MacField } from './mac-input.js';
import { nodeBuffer, nodeCrypto, nodeZlib } from './node-builtins.js';
import { randomBytes } from './random-bytes.js';

/** Bytes of a link id and of a GCM nonce (96 bits: the size GCM is specified for). */
export const LINK_BYTES = 12;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Bytes of a row seal kept from HMAC-SHA256's 32 (RFC 2104 truncation; 128 bits). */
const SEAL_BYTES = 16;
/** Payloads shorter than this are not compressed: deflate's fixed cost buys nothing there. */
const COMPRESS_FROM = 256;
/**
 * zlib's output buffer: by default 16 KiB, allocated on every call. A payload that fits one
 * smaller buffer gets one about its size (deflate of 1 KiB: about 4 us of CPU less, 12 against
 * 15.5 on Node 20; the output is the same bytes). Output longer than a chunk takes several chunks.
 */
const outputChunk = (length: number) => Math.min(16 * 1024, Math.max(1024, length + 64));
/**
 * deflate at level 1 (close to level 6 on JSON, and several times faster on large payloads), with
 * a 4 KiB window and less state for payloads that fit it: most of deflate's cost on a 1 KiB
 * payload is setting up its state (about 10 against 13 us; the output is the same size).
 */
const deflateOptions = (length: number) => (length <= 4096 ? { level: 1, windowBits: 12, memLevel: 4, chunkSize: outputChunk(length) } : { level: 1, chunkSize: outputChunk(length) });
/** A bound on an inflated payload; only authenticated bytes are ever inflated. */
const MAX_INFLATED_BYTES = 1 << 30;

/** The columns a seal covers besides its own fields: what identifies a row, its id included. */
export type RowIdentity = Pick<CheckpointRow, 'id' | 'namespace' | 'sessionId' | 'kind' | 'name' | 'createdAt' | 'sourceRef'>;

/** Where a row sits in its session's chain. */
export interface ChainPlace {
  /** The row's own link id (base64url). */
  link: string;
  /** The link of the row before it, or `null` for the first row of the chain. */
  prev: string | null;
}

/** A parsed envelope, before any check of its seal or ciphertext. */
export interface Envelope extends ChainPlace {
  keyId: string;
  iv: string;
  ct: string;
  seal: string;
  zip: boolean;
}

/** A row whose seal and ciphertext held: its plaintext and place. */
export interface OpenedRow extends ChainPlace {
  keyId: string;
  /** The canonical payload text. */
  payloadJson: string;
  /** SHA-256 of `payloadJson`. */
  payloadSha256: string;
}

const b64 = (bytes: Uint8Array) => nodeBuffer().from(bytes).toString('base64url');
const unb64 = (text: string) => nodeBuffer().from(text, 'base64url');
const B64URL = /^[A-Za-z0-9_-]*$/;

/** The associated data of a row's encryption. */
function associatedData(keyId: string, row: RowIdentity, link: string): Uint8Array {
  return macInput(['session-checkpoint/row/v1', keyId, row.id, row.namespace, row.sessionId, row.kind, row.name, row.createdAt, row.sourceRef, link]);
}

function sealOf(key: DerivedKey, row: RowIdentity, place: ChainPlace, iv: string, tag: Uint8Array, zip: boolean): string {
  const fields: MacField[] = [
    'session-checkpoint/row-seal/v1', key.id, row.id, row.namespace, row.sessionId, row.kind, row.name, row.createdAt, row.sourceRef,
    place.link, place.prev, iv, tag, zip ? 'deflate' : null,
  ];
  return b64(nodeCrypto().createHmac('sha256', key.seal).update(macInput(fields)).digest().subarray(0, SEAL_BYTES));
}

/** The envelope's text: canonical by construction (see the module comment). */
export function envelopeText(e: Envelope): string {
  const prev = e.prev === null ? 'null' : `"${e.prev}"`;
  return `{"ct":"${e.ct}","iv":"${e.iv}","key":"${e.keyId}","link":"${e.link}","prev":${prev},"seal":"${e.seal}","sealed":1${e.zip ? ',"zip":"deflate"' : ''}}`;
}

/** A new random link id. */
export function newLink(): string {
  return b64(randomBytes(LINK_BYTES));
}

/**
 * Seals and encrypts a canonical payload text for `row` (its id included) at `place`, with `key`:
 * the envelope text to store as the payload, and its SHA-256 (the `payload_sha256` column).
 */
export function sealRow(key: DerivedKey, row: RowIdentity, payloadJson: string, place: ChainPlace, compress: boolean): { payloadJson: string; payloadSha256: string } {
  const Buffer = nodeBuffer();
  let data: Uint8Array = Buffer.from(payloadJson, 'utf8');
  let zip = false;
  if (compress && data.length >= COMPRESS_FROM) {
    const deflated = nodeZlib().deflateRawSync(data, deflateOptions(data.length));
    if (deflated.length < data.length) {
      data = deflated;
      zip = true;
    }
  }
  const ivBytes = randomBytes(IV_BYTES);
  const cipher = nodeCrypto().createCipheriv('aes-256-gcm', key.encryption, ivBytes);
  cipher.setAAD(associatedData(key.id, row, place.link));
  const head = cipher.update(data);
  const tail = cipher.final();
  const tag = cipher.getAuthTag();
  const iv = b64(ivBytes);
  const ct = Buffer.concat([head, tail, tag]).toString('base64url');
  const text = envelopeText({ ...place, keyId: key.id, iv, ct, seal: sealOf(key, row, place, iv, tag, zip), zip });
  return { payloadJson: text, payloadSha256: sha256Hex(text) };
}

/** Quick test on stored text, before any parse: could this be an envelope? */
export function looksSealed(text: unknown): text is string {
  return typeof text === 'string' && text.startsWith('{"ct":"') && text.includes('"sealed":1');
}

/**
 * The envelope in a stored payload text, or `undefined` when the text is not exactly an envelope
 * in canonical form (a plaintext payload, or a damaged envelope). Checks nothing cryptographic.
 */
export function parseEnvelope(text: unknown): Envelope | undefined {
  if (!looksSealed(text)) return undefined;
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { ct, iv, key, link, prev, seal, sealed, zip } = value;
  const keys = Object.keys(value).length;
  if (sealed !== 1 || keys !== (zip === undefined ? 7 : 8) || (zip !== undefined && zip !== 'deflate')) return undefined;
  const b64s = [ct, iv, link, seal];
  if (!b64s.every((s) => typeof s === 'string' && B64URL.test(s)) || typeof key !== 'string') return undefined;
  if (!(prev === null || (typeof prev === 'string' && B64URL.test(prev)))) return undefined;
  const envelope: Envelope = { ct: ct as string, iv: iv as string, keyId: key, link: link as string, prev: prev as string | null, seal: seal as string, zip: zip !== undefined };
  // Exactly canonical, as written: a reformatted envelope is refused even with its hash recomputed.
  return envelopeText(envelope) === text ? envelope : undefined;
}

/**
 * Checks a stored row's envelope against `keys` and decrypts it. Returns the opened row, or why it
 * fails. Never throws. The row's `payloadSha256` column must be the envelope text's SHA-256 (the
 * Python tool checks the same), the seal must hold under the key the envelope names, and the
 * ciphertext must decrypt under the row's own identity.
 */
export function openRow(keys: Keyring, row: CheckpointRow, envelope = parseEnvelope(row.payloadJson)): OpenedRow | string {
  if (envelope === undefined) return 'not a sealed envelope (damaged, or not in canonical form)';
  if (row.payloadSha256 !== sha256Hex(row.payloadJson)) return 'envelope hash mismatch (payload_sha256 is not the hash of the stored envelope)';
  const key = derivedKey(keys, envelope.keyId);
  if (key === undefined) return `sealed with key '${envelope.keyId}', which the keyring does not hold`;
  const bytes = unb64(envelope.ct);
  if (bytes.length < TAG_BYTES || unb64(envelope.iv).length !== IV_BYTES || unb64(envelope.link).length !== LINK_BYTES) return 'envelope is damaged';
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  const expected = unb64(sealOf(key, row, envelope, envelope.iv, tag, envelope.zip));
  const given = unb64(envelope.seal);
  if (given.length !== expected.length || !nodeCrypto().timingSafeEqual(given, expected)) {
    return `seal does not verify under key '${envelope.keyId}' (the row was changed, or the key is not the one that sealed it)`;
  }
  let plain: Uint8Array;
  try {
    const decipher = nodeCrypto().createDecipheriv('aes-256-gcm', key.encryption, unb64(envelope.iv));
    decipher.setAAD(associatedData(key.id, row, envelope.link));
    decipher.setAuthTag(tag);
    const head = decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES));
    plain = nodeBuffer().concat([head, decipher.final()]);
    // The output chunk sized for payloads deflated about 4:1, as JSON states are (see outputChunk).
    if (envelope.zip) plain = nodeZlib().inflateRawSync(plain, { maxOutputLength: MAX_INFLATED_BYTES, chunkSize: outputChunk(plain.length * 4) });
  } catch {
    return `ciphertext does not decrypt under key '${envelope.keyId}' for this row`;
  }
  const payloadJson = nodeBuffer().from(plain).toString('utf8');
  return { keyId: key.id, link: envelope.link, prev: envelope.prev, payloadJson, payloadSha256: sha256Hex(payloadJson) };
}
