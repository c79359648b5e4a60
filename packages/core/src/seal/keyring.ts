/**
 * A keyring: 256-bit secrets under key ids, one of them active. The active key seals and encrypts
 * every write; every key of the ring reads, so rows written under an older key stay readable
 * until `rekey` has moved them to the active one.
 *
 * Secrets never leave this module except to write a key file: they are kept in a module-private
 * map, not on the object, so `JSON.stringify`, `console.log`, `util.inspect`, `structuredClone`
 * and error messages show key ids only. Each secret is expanded once with HKDF-SHA256 into
 * separate keys per purpose (encryption, seals, the store head's accumulator), so no key ever
 * serves two algorithms.
 */
import { CheckpointValidationError } from '../errors.js';
import { nodeCrypto } from './node-builtins.js';

/** Bytes of a secret: AES-256 and HMAC-SHA256 both take 256-bit keys. */
export const SECRET_BYTES = 32;

/** A key id: what envelopes, heads and errors name instead of the key. */
const KEY_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/** The keys derived from one secret. */
export interface DerivedKey {
  readonly id: string;
  /** AES-256-GCM key of row payloads and of the store head. */
  readonly encryption: Uint8Array;
  /** HMAC-SHA256 key of row seals and session heads. */
  readonly seal: Uint8Array;
  /** HMAC-SHA256 key of the store head's accumulator (see heads.ts). */
  readonly accumulator: Uint8Array;
}

interface Held {
  secrets: Map<string, Uint8Array>;
  derived: Map<string, DerivedKey>;
}

const held = new WeakMap<Keyring, Held>();

function derive(id: string, secret: Uint8Array): DerivedKey {
  const crypto = nodeCrypto();
  const expand = (purpose: string) => new Uint8Array(crypto.hkdfSync('sha256', secret, new Uint8Array(0), `session-checkpoint/v1/${purpose}`, SECRET_BYTES));
  return Object.freeze({ id, encryption: expand('encryption'), seal: expand('seal'), accumulator: expand('accumulator') });
}

/** Checks a key id against the token rule, naming the rule and never anything else. */
export function checkKeyId(id: unknown, where = 'key id'): string {
  if (typeof id !== 'string' || !KEY_ID.test(id)) {
    throw new CheckpointValidationError(`${where} must be 1 to 64 ASCII letters, digits and . _ : - (starting with a letter or digit)`);
  }
  return id;
}

/**
 * Key ids and 256-bit secrets, one active.
 *
 * @example
 * ```ts
 * const keys = Keyring.generate();          // one new random key, active
 * const store = new CheckpointStore(new MemoryAdapter(), { keys });
 * keys.activeId;                            // e.g. 'k-20261206-3fa9c1'
 * JSON.stringify(keys);                     // '{"activeId":"k-20261206-3fa9c1","ids":["k-20261206-3fa9c1"]}'
 * ```
 */
export class Keyring {
  /** The id of the key that seals and encrypts every write. */
  readonly activeId: string;
  /** Every key id of the ring, the active one included, in the order given. */
  readonly ids: readonly string[];

  /**
   * @param keys at least one key: an id (1 to 64 of `A-Z a-z 0-9 . _ : -`) and a 32-byte secret each.
   * @param active the id of the key that writes. Default is the last key given.
   * @throws CheckpointValidationError for a bad id, a secret that is not 32 bytes, a repeated id
   *   or an active id that is not in the ring (messages name ids, never secrets).
   */
  constructor(keys: readonly { id: string; secret: Uint8Array }[], active?: string) {
    if (!Array.isArray(keys) || keys.length === 0) throw new CheckpointValidationError('a keyring needs at least one key');
    const secrets = new Map<string, Uint8Array>();
    for (const key of keys) {
      const id = checkKeyId(key?.id);
      if (!(key.secret instanceof Uint8Array) || key.secret.length !== SECRET_BYTES) {
        throw new CheckpointValidationError(`key '${id}' must have a ${SECRET_BYTES}-byte secret`);
      }
      if (secrets.has(id)) throw new CheckpointValidationError(`key id '${id}' appears twice`);
      secrets.set(id, Uint8Array.from(key.secret));
    }
    const activeId = active === undefined ? (keys[keys.length - 1] as { id: string }).id : checkKeyId(active, 'active key id');
    if (!secrets.has(activeId)) throw new CheckpointValidationError(`the active key '${activeId}' is not in the keyring`);
    this.activeId = activeId;
    this.ids = Object.freeze([...secrets.keys()]);
    const derived = new Map<string, DerivedKey>();
    for (const [id, secret] of secrets) derived.set(id, derive(id, secret));
    held.set(this, { secrets, derived });
    Object.freeze(this);
  }

  /**
   * A keyring of one new random key (from the operating system's CSPRNG), active.
   *
   * @param id the key's id. Default is `k-<UTC date>-<6 random hex digits>`.
   */
  static generate(id?: string): Keyring {
    const crypto = nodeCrypto();
    const secret = crypto.randomFillSync(new Uint8Array(SECRET_BYTES));
    const suffix = [...crypto.randomFillSync(new Uint8Array(3))].map((b) => b.toString(16).padStart(2, '0')).join('');
    const keyId = id ?? `k-${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${suffix}`;
    return new Keyring([{ id: keyId, secret }]);
  }

  /** True when the ring holds a key with this id. */
  has(id: string): boolean {
    return (held.get(this) as Held).secrets.has(id);
  }

  /**
   * This ring with the keys of `other` added, and `other`'s active key active: what a rotation
   * opens the store with (old keys read, the new one writes).
   *
   * @throws CheckpointValidationError when both rings hold one id with different secrets.
   * @example
   * ```ts
   * const rotating = oldKeys.with(newKeys); // reads both, writes with newKeys.activeId
   * ```
   */
  with(other: Keyring): Keyring {
    const mine = (held.get(this) as Held).secrets;
    const theirs = secretsOf(other);
    const keys = [...mine].map(([id, secret]) => ({ id, secret }));
    for (const [id, secret] of theirs) {
      const existing = mine.get(id);
      if (existing === undefined) keys.push({ id, secret });
      else if (!nodeCrypto().timingSafeEqual(existing, secret)) {
        throw new CheckpointValidationError(`key id '${id}' names two different secrets: give each key its own id`);
      }
    }
    return new Keyring(keys, other.activeId);
  }

  /** Key ids only: a keyring never serialises its secrets. */
  toJSON(): { activeId: string; ids: readonly string[] } {
    return { activeId: this.activeId, ids: this.ids };
  }

  /** What `util.inspect` and `console.log` show: ids only. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Keyring { activeId: '${this.activeId}', ids: [${this.ids.map((id) => `'${id}'`).join(', ')}] }`;
  }
}

/** The derived keys of `id` in `ring`, or `undefined`. Internal: never exported from the package. */
export function derivedKey(ring: Keyring, id: string): DerivedKey | undefined {
  return held.get(ring)?.derived.get(id);
}

/** The raw secrets of a ring, for writing a key file. Internal: never exported from the package. */
export function secretsOf(ring: Keyring): ReadonlyMap<string, Uint8Array> {
  const entry = held.get(ring);
  if (entry === undefined) throw new CheckpointValidationError('keys must be a Keyring (from loadKeyFile, Keyring.generate or new Keyring)');
  return entry.secrets;
}

/** True for a keyring made by this module (not a look-alike object). */
export function isKeyring(value: unknown): value is Keyring {
  return typeof value === 'object' && value !== null && held.has(value as Keyring);
}
