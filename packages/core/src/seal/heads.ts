/**
 * Heads: what a sealed store keeps beside its rows so that order and completeness can be checked,
 * in the store's metadata (SQL: extra keys of `checkpoint_meta`, which the Python tool ignores),
 * never in new tables or columns.
 *
 * - A **session head** per session with sealed rows (`seal:session:<hash of namespace and
 *   session>`): the number of rows in the session's chain, the link of its last row, where the
 *   chain starts (`base`: the link its first row points back to, after older rows were deleted),
 *   the link and created_at of the row a `latest` read must return (`top`), the holes deletions
 *   left inside the chain (`bridges`), and an HMAC-SHA256 over all of it, its namespace and
 *   session id. Deleting the newest rows, reordering them or splicing in rows from an older copy
 *   of the session no longer matches it.
 * - One **store head** (`seal:store`): a write counter (`epoch`) and an accumulator, the XOR of a
 *   keyed HMAC of every session head's MAC, encrypted with AES-256-GCM. A session restored with
 *   its head from an older backup still has a valid head, but the accumulator no longer matches the
 *   set of session heads (verify recomputes it). The accumulator is secret (encrypted, keyed), so
 *   known differences between old and new heads cannot be combined to forge a match, and the head
 *   is authenticated, so it cannot be edited; only a whole older store head can be put back, which
 *   matches only the whole older set of sessions: the whole store replaced by an older copy, which
 *   only an anchor outside the store detects (`sealHead` / `checkSealHead`).
 */
import { CheckpointValidationError } from '../errors.js';
import { sha256Hex } from '../sha256.js';
import type { DerivedKey, Keyring } from './keyring.js';
import { derivedKey } from './keyring.js';
import { macInput, type MacField } from './mac-input.js';
import { nodeBuffer, nodeCrypto } from './node-builtins.js';
import { randomBytes } from './random-bytes.js';

/** Meta key of the store head. */
export const STORE_HEAD_KEY = 'seal:store';
/** Prefix of every session head's meta key. */
export const SESSION_HEAD_PREFIX = 'seal:session:';

/** A hole inside a chain: the link of a deleted row, and the link of the row before it. */
export type Bridge = readonly [link: string, prev: string | null];

/** A session head's content (what its MAC covers). */
export interface SessionHeadState {
  namespace: string;
  sessionId: string;
  /** Rows in the chain. */
  count: number;
  /** Link of the chain's last row. */
  last: string;
  /** Link the chain's first row points back to: `null` while no row was deleted from its start. */
  base: string | null;
  /** Link of the newest row by list order (created_at desc, id desc): what `latest` returns. */
  top: string;
  /** created_at of that row. */
  topAt: string;
  /** Holes left by deletions inside the chain, by link. */
  bridges: readonly Bridge[];
}

/** A session head as stored: its content, the key that sealed it and its MAC. */
export interface SessionHead extends SessionHeadState {
  keyId: string;
  mac: string;
  /** The stored text. */
  text: string;
}

/** The decrypted store head. */
export interface StoreHead {
  keyId: string;
  /** Writes so far: every sealed write transaction adds one. */
  epoch: number;
  /** XOR of the accumulator HMAC of every session head (32 bytes). */
  acc: Uint8Array;
  /** The stored text (`undefined` before the first write). */
  text: string | undefined;
}

const b64 = (bytes: Uint8Array) => nodeBuffer().from(bytes).toString('base64url');
const unb64 = (text: string) => nodeBuffer().from(text, 'base64url');

/** Keys computed lately: a writer and a reader of one session ask for the same key again and again. */
const recentKeys = new Map<string, string>();

/** The meta key of a session's head: a hash, so any session id fits and none is spelt out twice. */
export function sessionHeadKey(namespace: string, sessionId: string): string {
  const id = `${namespace}\u0000${sessionId}`;
  let key = recentKeys.get(id);
  if (key === undefined) {
    key = SESSION_HEAD_PREFIX + sha256Hex(macInput(['session-checkpoint/session-key/v1', namespace, sessionId])).slice(0, 32);
    if (recentKeys.size >= 4096) recentKeys.clear();
    recentKeys.set(id, key);
  }
  return key;
}

function sessionMac(key: DerivedKey, s: SessionHeadState): string {
  const fields: MacField[] = ['session-checkpoint/session-head/v1', key.id, s.namespace, s.sessionId, s.count, s.last, s.base, s.top, s.topAt, s.bridges.length];
  for (const [link, prev] of s.bridges) fields.push(link, prev);
  return b64(nodeCrypto().createHmac('sha256', key.seal).update(macInput(fields)).digest());
}

/** Bridges in link order, so a head's MAC does not depend on the order holes were made in. */
export function sortBridges(bridges: readonly Bridge[]): Bridge[] {
  return [...bridges].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** Seals a session head's content with `key`. */
export function sealSessionHead(key: DerivedKey, state: SessionHeadState): SessionHead {
  const s = { ...state, bridges: sortBridges(state.bridges) };
  const mac = sessionMac(key, s);
  const text = JSON.stringify({ v: 1, key: key.id, ns: s.namespace, session: s.sessionId, count: s.count, last: s.last, base: s.base, top: s.top, top_at: s.topAt, bridges: s.bridges, mac });
  return { ...s, keyId: key.id, mac, text };
}

const isLink = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z0-9_-]{16}$/.test(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * A stored session head, checked: its MAC must hold under the key it names, for the session it
 * is stored for. Returns the head, or why it fails.
 */
export function openSessionHead(keys: Keyring, text: string, namespace: string, sessionId: string): SessionHead | string {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return 'session head is not JSON';
  }
  if (typeof v !== 'object' || v === null || v.v !== 1 || typeof v.key !== 'string') return 'session head is damaged';
  const key = derivedKey(keys, v.key);
  if (key === undefined) return `session head is sealed with key '${v.key}', which the keyring does not hold`;
  const bridges = v.bridges;
  if (
    v.ns !== namespace || v.session !== sessionId || !isCount(v.count) || !isLink(v.last) || !(v.base === null || isLink(v.base)) ||
    !isLink(v.top) || typeof v.top_at !== 'string' || typeof v.mac !== 'string' || !Array.isArray(bridges) ||
    !bridges.every((b) => Array.isArray(b) && b.length === 2 && isLink(b[0]) && (b[1] === null || isLink(b[1])))
  ) {
    return 'session head is damaged or stored for another session';
  }
  const state: SessionHeadState = { namespace, sessionId, count: v.count, last: v.last, base: v.base as string | null, top: v.top, topAt: v.top_at, bridges: bridges as Bridge[] };
  const expected = unb64(sessionMac(key, state));
  const given = unb64(v.mac);
  if (given.length !== expected.length || !nodeCrypto().timingSafeEqual(given, expected)) {
    return `session head does not verify under key '${key.id}' (it was changed, or moved from another session)`;
  }
  return { ...state, keyId: key.id, mac: v.mac, text };
}

/** The accumulator term of a session head: an HMAC of its MAC under the store head's key. */
export function accumulatorTerm(key: DerivedKey, head: Pick<SessionHead, 'mac'>): Uint8Array {
  return nodeCrypto().createHmac('sha256', key.accumulator).update(macInput(['session-checkpoint/accumulator/v1', head.mac])).digest();
}

/** `acc` XOR `term`, as a new array. */
export function xor(acc: Uint8Array, term: Uint8Array): Uint8Array {
  const out = Uint8Array.from(acc);
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) ^ (term[i] ?? 0);
  return out;
}

/** The store head of a store that has none yet: epoch 0, empty accumulator. */
export function emptyStoreHead(keyId: string): StoreHead {
  return { keyId, epoch: 0, acc: new Uint8Array(32), text: undefined };
}

const storeAad = (keyId: string) => macInput(['session-checkpoint/store-head/v1', keyId]);

/** Encrypts a store head with `key`; returns its stored text. */
export function sealStoreHead(key: DerivedKey, epoch: number, acc: Uint8Array): string {
  const iv = randomBytes(12);
  const cipher = nodeCrypto().createCipheriv('aes-256-gcm', key.encryption, iv);
  cipher.setAAD(storeAad(key.id));
  const plain = nodeBuffer().from(JSON.stringify({ epoch, acc: b64(acc) }), 'utf8');
  const ct = nodeBuffer().concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return JSON.stringify({ v: 1, key: key.id, iv: b64(iv), ct: b64(ct) });
}

/** A stored store head, decrypted; or why it fails. */
export function openStoreHead(keys: Keyring, text: string): StoreHead | string {
  try {
    const v = JSON.parse(text) as { v?: unknown; key?: unknown; iv?: unknown; ct?: unknown };
    if (v.v !== 1 || typeof v.key !== 'string' || typeof v.iv !== 'string' || typeof v.ct !== 'string') return 'store head is damaged';
    const key = derivedKey(keys, v.key);
    if (key === undefined) return `store head is sealed with key '${v.key}', which the keyring does not hold`;
    const bytes = unb64(v.ct);
    const decipher = nodeCrypto().createDecipheriv('aes-256-gcm', key.encryption, unb64(v.iv));
    decipher.setAAD(storeAad(key.id));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    const plain = nodeBuffer().concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]);
    const inner = JSON.parse(nodeBuffer().from(plain).toString('utf8')) as { epoch: number; acc: string };
    return { keyId: key.id, epoch: inner.epoch, acc: unb64(inner.acc), text };
  } catch {
    return 'store head does not decrypt (it was changed, or the key is not the one that sealed it)';
  }
}

/** The prefix of every anchor digest. */
const DIGEST_PREFIX = 'sc-head-v1';

/**
 * The anchor digest of a store head: `sc-head-v1:<epoch>:<32 hex digits>`, the epoch (writes so
 * far) followed by 128 bits of the SHA-256 of the stored head. Any write changes it.
 */
export function headDigest(head: StoreHead): string {
  return `${DIGEST_PREFIX}:${head.epoch}:${sha256Hex(head.text ?? '').slice(0, 32)}`;
}

/** The epoch of a digest, or a validation error for text that is not one. */
export function digestEpoch(digest: unknown): number {
  const match = typeof digest === 'string' ? /^sc-head-v1:(0|[1-9]\d{0,15}):[0-9a-f]{32}$/.exec(digest) : null;
  if (match === null) throw new CheckpointValidationError('expected head must be a digest as sealHead returns it (sc-head-v1:<epoch>:<32 hex digits>)');
  return Number(match[1]);
}
