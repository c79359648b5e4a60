/**
 * Everything a `CheckpointStore` opened with keys does beyond a plain one, in one place below the
 * adapters (adapters never seal, as they never hash): sealing and chaining rows on write, keeping
 * the heads in the same atomic step, and checking rows, chains and heads on read.
 *
 * Writes take one of two paths:
 * - **optimistic** (a create outside a transaction, without retention or an explicit id): the
 *   row and both heads are computed from heads this store read or wrote before, and the adapter
 *   inserts the row and writes the heads in one atomic step only if the store head is still the
 *   one they were computed from (`insertWithMeta`: one statement on PostgreSQL). Every sealed
 *   write changes the store head, so an unchanged store head proves that no other writer moved
 *   any chain meanwhile. A lost race re-reads the heads and tries again (three times, then the
 *   locked path).
 * - **locked** (transactions, retention, deletions, imports, rotation): the transaction takes
 *   the seal lock (`transactionLock` where writers run concurrently) and the store head's entry
 *   (`readMeta` with `lock`), reads and changes session heads as it writes and deletes rows, and
 *   writes every changed head and the new store head just before it commits ({@link SealTx.flush}).
 */
import { CheckpointIntegrityError, isCheckpointConflictError, CheckpointConflictError } from '../errors.js';
import { isIdLimitError } from '../port/id-limit.js';
import type { CheckpointAdapter } from '../port/adapter.js';
import { reserveIdByPlaceholder, SEAL_LOCK } from '../port/meta-rows.js';
import type { PreparedCheckpoint } from '../store/prepare.js';
import { toCheckpoint } from '../store/verify-row.js';
import type { Checkpoint, CheckpointRow, NewCheckpointRow } from '../types.js';
import { TwoGenerationCache } from '../cache/two-generation-cache.js';
import { appendToHead, newerThanTop, removeFromHead, walkChain, type ChainRow } from './chain.js';
import {
  accumulatorTerm,
  digestEpoch,
  emptyStoreHead,
  headDigest,
  openSessionHead,
  openStoreHead,
  sealSessionHead,
  sealStoreHead,
  sessionHeadKey,
  SESSION_HEAD_PREFIX,
  STORE_HEAD_KEY,
  xor,
  type SessionHead,
  type SessionHeadState,
  type StoreHead,
} from './heads.js';
import { derivedKey, type DerivedKey, type Keyring } from './keyring.js';
import { insertWithMeta, listMeta, readMeta, writeMeta } from './meta-access.js';
import { newLink, parseEnvelope, sealRow, type ChainPlace } from './row-envelope.js';
import type { SealedReader } from './sealed-reader.js';

/** One chain, order or head problem found by `verify`. */
export interface SealProblem {
  /** The session's namespace, or `null` for a problem of the whole store. */
  namespace: string | null;
  /** The session, or `null` for a problem of the whole store. */
  sessionId: string | null;
  reason: string;
  /** Rows involved, when known. */
  ids: number[];
}

/** What `verify` adds for a store opened with keys. */
export interface SealReport {
  /** Rows that are sealed and passed. */
  sealed: number;
  /** Plaintext rows that passed (only with `allowPlaintext`; otherwise they are failures). */
  plaintext: number;
  /** Sessions whose chain was checked against its head. */
  sessions: number;
  /** Chain, order and head problems; empty when every chain and head holds. */
  problems: SealProblem[];
  /** The store head's anchor digest (whole-store verify only; `null` for one namespace). */
  head: string | null;
}

/** The integrity error of a session whose chain or head does not hold. */
export function sessionError(namespace: string, sessionId: string, reason: string, ids: readonly number[] = []): CheckpointIntegrityError {
  return new CheckpointIntegrityError(`Session '${sessionId}' of namespace '${namespace}' failed chain verification: ${reason}`, {
    failures: ids.map((id) => ({ id, reason })),
  });
}

/** The integrity error of the store head. */
export function storeHeadError(reason: string): CheckpointIntegrityError {
  return new CheckpointIntegrityError(`The store's sealed head failed verification: ${reason}`);
}

/** A session's head as a write sees it. */
interface Slot {
  namespace: string;
  sessionId: string;
  key: string;
  /** As read: its accumulator term comes out of the store head when it changes. */
  original: SessionHead | undefined;
  /** As changed so far. */
  state: SessionHeadState | undefined;
  dirty: boolean;
  /** The row `latest` returns was deleted: the flush finds the new one. */
  needsTop: boolean;
}

/** Heads an optimistic writer knows, valid while the store head is still `storeText`. */
interface HeadCache {
  storeText: string | null;
  store: StoreHead;
  /** Per session: its head, and the head's accumulator term (once computed). */
  sessions: Map<string, { head: SessionHead | undefined; term?: Uint8Array }>;
}

/** Attempts of the optimistic path before a write takes the locked one. */
const OPTIMISTIC_ATTEMPTS = 3;
/**
 * How many times verify reads a session (or the store's heads) again, without blocking anyone,
 * when its head moved between two reads of one check (a concurrent writer); after that it reads
 * once holding the store head, which writers wait for.
 */
const VERIFY_RECHECKS = 5;
/** The start of a verify problem that says a part could not be checked because writers kept changing it: not damage. */
export const UNSETTLED = 'busy, not damage (writers kept writing while verify ran: verify again)';

/** The sealing of one store, shared with the stores its transactions bind. */
export class StoreSeal {
  readonly keys: Keyring;
  readonly reader: SealedReader;
  readonly compress: boolean;
  #cache: HeadCache | undefined;
  /** Optimistic writes of this store run one at a time: they would only race each other. */
  #queue: Promise<unknown> = Promise.resolve();
  /** Session head texts already verified, with what they hold (a head is re-read on every latest). */
  readonly #heads = new TwoGenerationCache<string, SessionHead>(2048);

  constructor(reader: SealedReader, compress: boolean) {
    this.keys = reader.keys;
    this.reader = reader;
    this.compress = compress;
  }

  /** The active key's derived keys. */
  get active(): DerivedKey {
    return derivedKey(this.keys, this.keys.activeId) as DerivedKey;
  }

  /** A new state for a transaction on `adapter` (bound to it). */
  begin(adapter: CheckpointAdapter): SealTx {
    this.#cache = undefined;
    return new SealTx(this, adapter);
  }

  /** A stored session head, checked (remembered by text); throws a session integrity error. */
  openHead(text: string, namespace: string, sessionId: string): SessionHead {
    const known = this.#heads.get(text);
    if (known !== undefined && known.namespace === namespace && known.sessionId === sessionId) return known;
    const head = openSessionHead(this.keys, text, namespace, sessionId);
    if (typeof head === 'string') throw sessionError(namespace, sessionId, head);
    this.#heads.set(text, head);
    return head;
  }

  /** The session's head, checked, or `undefined`. */
  async readHead(adapter: CheckpointAdapter, namespace: string, sessionId: string, lock = false): Promise<SessionHead | undefined> {
    const [entry] = await readMeta(adapter, [sessionHeadKey(namespace, sessionId)], lock);
    return entry === undefined ? undefined : this.openHead(entry.value, namespace, sessionId);
  }

  /** The store head, decrypted; an empty one (epoch 0) for a store with no sealed write yet. */
  async readStoreHead(adapter: CheckpointAdapter, lock = false): Promise<{ text: string | null; head: StoreHead }> {
    let [entry] = await readMeta(adapter, [STORE_HEAD_KEY], lock);
    if (entry === undefined) {
      const sessions = await listMeta(adapter, SESSION_HEAD_PREFIX);
      // A first write of another process may have committed between the two reads: read again.
      if (sessions.length > 0) [entry] = await readMeta(adapter, [STORE_HEAD_KEY], lock);
      if (entry === undefined && sessions.length > 0) throw storeHeadError(`it is missing while ${sessions.length} session(s) are sealed (it was deleted)`);
      if (entry === undefined) return { text: null, head: emptyStoreHead(this.keys.activeId) };
    }
    const head = openStoreHead(this.keys, entry.value);
    if (typeof head === 'string') throw storeHeadError(head);
    return { text: entry.value, head };
  }

  /** The sealed row to insert for `prepared` with this id, at `place`. */
  sealedRow(prepared: PreparedCheckpoint, id: number, place: ChainPlace, key = this.active): NewCheckpointRow & { id: number } {
    const sealed = sealRow(key, { ...prepared, id }, prepared.payloadJson, place, this.compress);
    const row = {
      id,
      namespace: prepared.namespace,
      sessionId: prepared.sessionId,
      kind: prepared.kind,
      name: prepared.name,
      payloadJson: sealed.payloadJson,
      payloadSha256: sealed.payloadSha256,
      createdAt: prepared.createdAt,
      sourceRef: prepared.sourceRef,
    };
    return row;
  }

  /**
   * {@link sealedRow} for a create, remembered by the reader as it is written (reading it back is
   * then a memo hit). Only for a create: its `prepared` carries the plaintext's hash, where a row
   * re-sealed by rekey or import carries its stored (envelope) hash.
   */
  createdRow(prepared: PreparedCheckpoint, id: number, place: ChainPlace): NewCheckpointRow & { id: number } {
    const row = this.sealedRow(prepared, id, place);
    this.reader.rememberWritten(row, place, this.active.id, prepared.payloadJson, prepared.payloadSha256);
    return row;
  }

  /**
   * The optimistic create (see the module comment): the record, or `undefined` when it lost the
   * race three times or the store head is under another key, and the caller takes the locked path.
   */
  insertOptimistic(adapter: CheckpointAdapter, prepared: PreparedCheckpoint, holds?: () => Promise<boolean>): Promise<Checkpoint | undefined | false> {
    const run = this.#queue.then(() => this.#insertOptimistic(adapter, prepared, holds));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * `holds`: a precondition read after the store head the write will swap is known (see
   * `insertPreparedIfPresent`): every sealed write, deletions included, changes the store head, so
   * what `holds` saw still holds when the swap succeeds. `false` when it does not hold.
   */
  async #insertOptimistic(adapter: CheckpointAdapter, prepared: PreparedCheckpoint, holds?: () => Promise<boolean>): Promise<Checkpoint | undefined | false> {
    const { namespace, sessionId } = prepared;
    const key = sessionHeadKey(namespace, sessionId);
    for (let attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
      let cache = this.#cache;
      if (cache === undefined) {
        const { text, head } = await this.readStoreHead(adapter);
        cache = { storeText: text, store: head, sessions: new Map() };
      }
      // A first write, or a store head under another key (a rotation): the locked path.
      if (cache.storeText === null || cache.store.keyId !== this.keys.activeId) return undefined;
      if (holds !== undefined && !(await holds())) return false;
      let session = cache.sessions.get(key);
      if (session === undefined) session = { head: await this.readHead(adapter, namespace, sessionId) };
      const place: ChainPlace = { link: newLink(), prev: session.head?.last ?? null };
      const active = this.active;
      const next = sealSessionHead(active, appendToHead(session.head, namespace, sessionId, { link: place.link, createdAt: prepared.createdAt }, newerThanTop(session.head, prepared.createdAt)));
      let acc = cache.store.acc;
      if (session.head !== undefined) acc = xor(acc, session.term ?? accumulatorTerm(active, session.head));
      const term = accumulatorTerm(active, next);
      acc = xor(acc, term);
      const epoch = cache.store.epoch + 1;
      const storeText = sealStoreHead(active, epoch, acc);
      const id = await insertWithMeta(adapter, (id) => this.createdRow(prepared, id, place), { key: STORE_HEAD_KEY, expected: cache.storeText, value: storeText }, [{ key, value: next.text }]);
      if (id === undefined) {
        this.#cache = undefined;
        continue;
      }
      cache.sessions.set(key, { head: next, term });
      this.#cache = { storeText, store: { keyId: active.id, epoch, acc, text: storeText }, sessions: cache.sessions };
      return toCheckpoint({ ...prepared, id });
    }
    return undefined;
  }

  /** Forgets the heads an optimistic writer knew (after a transaction, or a failure). */
  forgetHeads(): void {
    this.#cache = undefined;
  }

  /** The anchor digest of the store head: `sc-head-v1:<writes>:<32 hex digits>`. */
  async headDigest(adapter: CheckpointAdapter): Promise<string> {
    return headDigest((await this.readStoreHead(adapter)).head);
  }

  /**
   * Throws {@link CheckpointIntegrityError} unless the store head is exactly the one `expected`
   * (a digest from {@link headDigest}) names, saying whether it is older, newer or another.
   */
  async checkHead(adapter: CheckpointAdapter, expected: string): Promise<void> {
    const expectedEpoch = digestEpoch(expected);
    const current = await this.headDigest(adapter);
    if (current === expected) return;
    const epoch = digestEpoch(current);
    const detail =
      epoch < expectedEpoch
        ? `it is at write ${epoch}, before the expected write ${expectedEpoch}: the store was rolled back or replaced by an older copy`
        : epoch > expectedEpoch
          ? `it is at write ${epoch}, after the expected write ${expectedEpoch}: the store changed since that digest was taken`
          : `it is at write ${epoch} like the expected head, but differs: the store was replaced by another copy`;
    throw storeHeadError(`expected ${expected}, found ${current}: ${detail}`);
  }

  /**
   * Checks the rows of a session page read in list order (newest first) against the session's
   * head: the first sealed row of a page that starts at offset 0 must be the head's newest, and no
   * link may appear twice.
   */
  checkSessionPage(namespace: string, sessionId: string, head: SessionHead | undefined, rows: readonly { id: number; createdAt: string; opened: ChainPlace | undefined }[], fromStart: boolean): void {
    const sealed = rows.filter((r) => r.opened !== undefined) as { id: number; createdAt: string; opened: ChainPlace }[];
    if (head === undefined) {
      if (sealed.length > 0) throw sessionError(namespace, sessionId, 'its rows are sealed but its head is missing (it was deleted)', sealed.map((r) => r.id));
      return;
    }
    if (fromStart) {
      if (rows.length === 0) throw sessionError(namespace, sessionId, `its head names ${head.count} row(s), none is stored (rows were deleted)`);
      // A plaintext row may be newer (allowPlaintext: rows from before the keys); the newest sealed one must be the head's.
      const first = sealed[0];
      if (first !== undefined && (first.opened.link !== head.top || first.createdAt !== head.topAt)) {
        throw sessionError(namespace, sessionId, `row ${first.id} is not the newest row its head names (newer rows were deleted, or rows reordered or restored from an older copy)`, [first.id]);
      }
    }
    const byLink = new Map<string, number>();
    for (const r of sealed) {
      const other = byLink.get(r.opened.link);
      if (other !== undefined) throw sessionError(namespace, sessionId, `rows ${other} and ${r.id} carry the same link (a row was copied)`, [other, r.id]);
      byLink.set(r.opened.link, r.id);
    }
  }

  /**
   * Checks every sealed row of a scan against the chains and heads (see `walkChain`), and, for a
   * whole store, the store head against the set of session heads.
   */
  async verifyChains(
    adapter: CheckpointAdapter,
    rows: Map<string, { namespace: string; sessionId: string; rows: ChainRow[] }>,
    namespace: string | undefined,
    reread?: (adapter: CheckpointAdapter, namespace: string, sessionId: string) => Promise<ChainRow[]>,
  ): Promise<Omit<SealReport, 'sealed' | 'plaintext'>> {
    const problems: SealProblem[] = [];
    const heads = new Map<string, SessionHead>();
    // The session heads and the store head are read in separate statements: a writer may commit
    // between them. The store head changes on every sealed write, so the same store head text
    // before and after the listing means the listing is of that head's state.
    // When writers keep changing it, the listing is made once more holding the store head, as a
    // writer does: writers wait for that moment.
    const listHeads = async (from: CheckpointAdapter) => {
      const before = namespace === undefined ? (await readMeta(from, [STORE_HEAD_KEY]))[0]?.value : undefined;
      const entries = await listMeta(from, SESSION_HEAD_PREFIX);
      const after = namespace === undefined ? (await readMeta(from, [STORE_HEAD_KEY]))[0]?.value : undefined;
      return before === after ? { entries, storeText: after } : undefined;
    };
    let listed = await this.#settled(adapter, listHeads);
    if (listed === undefined && reread !== undefined) listed = await this.#whileHeld(adapter, listHeads).catch(() => undefined);
    const settled = listed !== undefined;
    const entries = listed?.entries ?? (await listMeta(adapter, SESSION_HEAD_PREFIX));
    const storeText = listed?.storeText;
    for (const entry of entries) {
      let claimed: { ns?: unknown; session?: unknown };
      try {
        claimed = JSON.parse(entry.value) as typeof claimed;
      } catch {
        claimed = {};
      }
      if (typeof claimed.ns !== 'string' || typeof claimed.session !== 'string') {
        problems.push({ namespace: null, sessionId: null, reason: `session head ${entry.key} is damaged`, ids: [] });
        continue;
      }
      if (namespace !== undefined && claimed.ns !== namespace) continue;
      if (sessionHeadKey(claimed.ns, claimed.session) !== entry.key) {
        problems.push({ namespace: claimed.ns, sessionId: claimed.session, reason: `a session head is stored under another session's key (${entry.key})`, ids: [] });
        continue;
      }
      const head = openSessionHead(this.keys, entry.value, claimed.ns, claimed.session);
      if (typeof head === 'string') problems.push({ namespace: claimed.ns, sessionId: claimed.session, reason: head, ids: [] });
      else heads.set(entry.key, head);
    }
    const keys = new Set([...heads.keys(), ...rows.keys()]);
    for (const key of keys) {
      const head = heads.get(key);
      const session = rows.get(key);
      if (head === undefined) {
        // A damaged head was reported above; a missing one is reported here.
        if (session !== undefined && !problems.some((p) => p.namespace === session.namespace && p.sessionId === session.sessionId)) {
          const found = [{ reason: 'its rows are sealed but its head is missing (it was deleted)', ids: session.rows.map((r) => r.id) }];
          const confirmed = reread === undefined ? found : await this.#recheckSession(adapter, session.namespace, session.sessionId, reread);
          for (const p of confirmed) problems.push({ namespace: session.namespace, sessionId: session.sessionId, ...p });
        }
        continue;
      }
      let found = walkChain(head, session?.rows ?? []);
      // The rows were scanned before the heads were read: a write in between looks like a broken
      // chain. Only a problem that is still there in a settled re-read of the session is reported.
      if (found.length > 0 && reread !== undefined) found = await this.#recheckSession(adapter, head.namespace, head.sessionId, reread);
      for (const p of found) problems.push({ namespace: head.namespace, sessionId: head.sessionId, ...p });
    }
    let digest: string | null = null;
    if (namespace === undefined) {
      try {
        const opened = storeText === undefined ? undefined : openStoreHead(this.keys, storeText);
        if (typeof opened === 'string') throw storeHeadError(opened);
        const store = opened ?? (await this.readStoreHead(adapter)).head;
        digest = headDigest(store);
        const key = derivedKey(this.keys, store.keyId);
        let acc: Uint8Array = new Uint8Array(32);
        for (const head of heads.values()) acc = xor(acc, accumulatorTerm(key as DerivedKey, head));
        const damaged = problems.some((p) => p.reason.startsWith('session head'));
        if (!settled) {
          problems.push({ namespace: null, sessionId: null, reason: `${UNSETTLED}: the store head changed on each of ${VERIFY_RECHECKS} reads, and a read holding it failed, so it was not checked against the session heads`, ids: [] });
        } else if (!damaged && !acc.every((b, i) => b === store.acc[i])) {
          problems.push({ namespace: null, sessionId: null, reason: 'the store head does not match the set of session heads: a session was restored from an older copy with its head, or a head was deleted', ids: [] });
        }
      } catch (error) {
        problems.push({ namespace: null, sessionId: null, reason: (error as Error).message, ids: [] });
      }
    }
    return { sessions: keys.size, problems, head: digest };
  }

  /**
   * Checks one session again from a settled read: its head, its rows, its head again, until the
   * head text is the same twice (every write of the session, retention's deletions included,
   * changes it), so the rows read are the ones that head names. Returns the problems of that
   * read: a real one (rows deleted, reordered, copied, spliced) is there every time; one a
   * concurrent write caused is not. A session that changes on every read is read once more
   * holding the store head; if even that fails (a read-only file), it is reported as busy, not as
   * damage.
   */
  async #recheckSession(adapter: CheckpointAdapter, namespace: string, sessionId: string, reread: (adapter: CheckpointAdapter, namespace: string, sessionId: string) => Promise<ChainRow[]>): Promise<{ reason: string; ids: number[] }[]> {
    const key = sessionHeadKey(namespace, sessionId);
    const read = async (from: CheckpointAdapter) => {
      const before = (await readMeta(from, [key]))[0]?.value;
      const rows = await reread(from, namespace, sessionId);
      const after = (await readMeta(from, [key]))[0]?.value;
      return before === after ? { text: after, rows } : undefined;
    };
    // A quiet session settles at once (a real problem is found again without a transaction, so a
    // read-only store reports it); a busy one is read while holding the store head.
    const found = (await this.#settled(adapter, read)) ?? (await this.#whileHeld(adapter, read).catch(() => undefined));
    if (found !== undefined) {
      const { text, rows } = found;
      if (text === undefined) return rows.length === 0 ? [] : [{ reason: 'its rows are sealed but its head is missing (it was deleted)', ids: rows.map((r) => r.id) }];
      const head = openSessionHead(this.keys, text, namespace, sessionId);
      return typeof head === 'string' ? [{ reason: head, ids: [] }] : walkChain(head, rows);
    }
    return [{ reason: `${UNSETTLED}: its head changed on each of ${VERIFY_RECHECKS} reads, and a read holding the store head failed, so its chain was not checked`, ids: [] }];
  }

  /** Runs `read` up to {@link VERIFY_RECHECKS} times until it answers (a settled read). */
  async #settled<T>(adapter: CheckpointAdapter, read: (adapter: CheckpointAdapter) => Promise<T | undefined>): Promise<T | undefined> {
    for (let attempt = 0; attempt < VERIFY_RECHECKS; attempt++) {
      const found = await read(adapter);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /**
   * Runs `read` once in a transaction that holds the store head as a sealed writer does (the seal
   * lock, then the head read for update; SQLite's transactions take the write lock): every sealed
   * write changes the store head, so none commits until the read is done, and it settles.
   */
  async #whileHeld<T>(adapter: CheckpointAdapter, read: (adapter: CheckpointAdapter) => Promise<T | undefined>): Promise<T | undefined> {
    return adapter.transaction(async (tx) => {
      if (tx.capabilities.transactionLocks === true && tx.transactionLock) await tx.transactionLock(SEAL_LOCK);
      await readMeta(tx, [STORE_HEAD_KEY], true);
      return read(tx);
    });
  }
}

/** What one transaction of a sealed store changes in its heads; written by {@link flush}. */
export class SealTx {
  #locked = false;
  #storeText: string | null = null;
  #store: StoreHead | undefined;
  readonly #slots = new Map<string, Slot>();
  /** Re-seal the store head even when no session head changed (rotation). */
  #forceStore = false;

  constructor(
    readonly seal: StoreSeal,
    readonly adapter: CheckpointAdapter,
  ) {}

  /** Takes the seal lock and the store head, once per transaction. */
  async lock(): Promise<void> {
    if (this.#locked) return;
    const adapter = this.adapter;
    if (adapter.capabilities.transactionLocks === true && adapter.transactionLock) await adapter.transactionLock(SEAL_LOCK);
    let { text, head } = await this.seal.readStoreHead(adapter, true);
    if (text === null) {
      // A store's first sealed write: an empty head is put in place first (unless a concurrent
      // first writer's is there), so that there is an entry to hold locked until the commit.
      await writeMeta(adapter, [{ key: STORE_HEAD_KEY, value: sealStoreHead(this.seal.active, 0, new Uint8Array(32)), ifAbsent: true }]);
      ({ text, head } = await this.seal.readStoreHead(adapter, true));
    }
    this.#storeText = text;
    this.#store = head;
    this.#locked = true;
  }

  async #slot(namespace: string, sessionId: string): Promise<Slot> {
    await this.lock();
    const key = sessionHeadKey(namespace, sessionId);
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      const original = await this.seal.readHead(this.adapter, namespace, sessionId, true);
      slot = { namespace, sessionId, key, original, state: original, dirty: false, needsTop: false };
      this.#slots.set(key, slot);
    }
    return slot;
  }

  /**
   * Seals `prepared` onto the end of its session's chain and inserts it (with `explicitId` when
   * given, as import does), then applies retention like the adapter's `keepLatest` would.
   * Resolves to the record and the ids retention removed.
   */
  async insert(prepared: PreparedCheckpoint, explicitId?: number, keepLatest?: number): Promise<{ record: Checkpoint; pruned: number[] }> {
    const slot = await this.#slot(prepared.namespace, prepared.sessionId);
    const place: ChainPlace = { link: newLink(), prev: slot.state?.last ?? null };
    const adapter = this.adapter;
    const id = explicitId ?? (adapter.reserveId ? await adapter.reserveId() : await reserveIdByPlaceholder(adapter));
    await adapter.insert(this.seal.createdRow(prepared, id, place));
    const newest = explicitId === undefined ? newerThanTop(slot.state, prepared.createdAt) : (await adapter.latestRow(prepared.namespace, prepared.sessionId))?.id === id;
    slot.state = appendToHead(slot.state, prepared.namespace, prepared.sessionId, { link: place.link, createdAt: prepared.createdAt }, newest);
    slot.dirty = true;
    const record = toCheckpoint({ ...prepared, id });
    if (keepLatest === undefined) return { record, pruned: [] };
    const pruned = await this.adapter.findPrunable({ namespace: prepared.namespace, sessionId: prepared.sessionId, keepLatest });
    if (pruned.length > 0) {
      await this.remove(await rowsOf(this.adapter, pruned, prepared.namespace));
      await this.adapter.deleteRows(pruned, prepared.namespace);
    }
    return { record, pruned };
  }

  /**
   * Takes rows that are about to be deleted out of their chains. Call it before deleting them
   * (their envelopes say where they sit). Plaintext and unreadable rows belong to no chain.
   */
  async remove(rows: readonly CheckpointRow[]): Promise<void> {
    const bySession = new Map<string, { namespace: string; sessionId: string; places: ChainPlace[] }>();
    for (const row of rows) {
      const envelope = parseEnvelope(row.payloadJson);
      if (envelope === undefined) continue;
      const key = sessionHeadKey(row.namespace, row.sessionId);
      const entry = bySession.get(key) ?? { namespace: row.namespace, sessionId: row.sessionId, places: [] };
      entry.places.push(envelope);
      bySession.set(key, entry);
    }
    for (const { namespace, sessionId, places } of bySession.values()) {
      const slot = await this.#slot(namespace, sessionId);
      if (slot.state === undefined) continue;
      const { head, topRemoved } = removeFromHead(slot.state, places);
      slot.state = head;
      slot.needsTop ||= topRemoved;
      slot.dirty = true;
    }
  }

  /** A whole session is being deleted: its head goes. */
  async dropSession(namespace: string, sessionId: string): Promise<void> {
    const slot = await this.#slot(namespace, sessionId);
    slot.state = undefined;
    slot.needsTop = false;
    slot.dirty = true;
  }

  /**
   * Replaces a sealed session's head outright (import adopting a bundle's chain, rotation
   * re-sealing one under the active key), as part of this transaction.
   */
  async setHead(namespace: string, sessionId: string, state: SessionHeadState | undefined): Promise<void> {
    const slot = await this.#slot(namespace, sessionId);
    slot.state = state;
    slot.dirty = true;
  }

  /** The session's head as this transaction sees it (read under the lock). */
  async head(namespace: string, sessionId: string): Promise<SessionHeadState | undefined> {
    return (await this.#slot(namespace, sessionId)).state;
  }

  /** Re-seals a session's head under the active key as this transaction commits (rotation). */
  async touchHead(namespace: string, sessionId: string): Promise<void> {
    const slot = await this.#slot(namespace, sessionId);
    if (slot.state !== undefined && slot.original?.keyId !== this.seal.keys.activeId) slot.dirty = true;
  }

  /**
   * Seals a plaintext row onto the end of its session's chain, in place: `replace` writes the row
   * sealed at the place given (keeping its id), then the head takes it in.
   */
  async sealInPlace(row: CheckpointRow, replace: (place: ChainPlace) => Promise<void>): Promise<void> {
    const slot = await this.#slot(row.namespace, row.sessionId);
    const place: ChainPlace = { link: newLink(), prev: slot.state?.last ?? null };
    await replace(place);
    const newest = (await this.adapter.latestRow(row.namespace, row.sessionId))?.id === row.id;
    slot.state = appendToHead(slot.state, row.namespace, row.sessionId, { link: place.link, createdAt: row.createdAt }, newest);
    slot.dirty = true;
  }

  /** Whether any head changed. */
  get dirty(): boolean {
    return [...this.#slots.values()].some((s) => s.dirty);
  }

  /** Marks the store head for re-sealing even when no session changed (rotation). */
  async touchStore(): Promise<void> {
    await this.lock();
    this.#forceStore = true;
  }

  /**
   * Writes every changed session head and the new store head, in the transaction. Call it once,
   * after the transaction's last write and before it commits.
   */
  async flush(): Promise<void> {
    const dirty = [...this.#slots.values()].filter((s) => s.dirty);
    if (dirty.length === 0 && !this.#forceStore) return;
    await this.lock();
    for (const slot of dirty) if (slot.needsTop && slot.state !== undefined) slot.state = { ...slot.state, ...(await this.#top(slot)) };
    const active = this.seal.active;
    const next = new Map(dirty.map((s) => [s.key, s.state === undefined ? undefined : sealSessionHead(active, s.state)] as const));
    const store = this.#store as StoreHead;
    let acc: Uint8Array;
    if (store.keyId === active.id) {
      acc = store.acc;
      for (const slot of dirty) {
        if (slot.original !== undefined) acc = xor(acc, accumulatorTerm(active, slot.original));
        const head = next.get(slot.key);
        if (head !== undefined) acc = xor(acc, accumulatorTerm(active, head));
      }
    } else {
      // The store head is under another key (a rotation): its accumulator is rebuilt under the active key.
      acc = new Uint8Array(32);
      for (const entry of await listMeta(this.adapter, SESSION_HEAD_PREFIX)) {
        if (next.has(entry.key)) continue;
        const claimed = JSON.parse(entry.value) as { ns: string; session: string };
        acc = xor(acc, accumulatorTerm(active, this.seal.openHead(entry.value, claimed.ns, claimed.session)));
      }
      for (const head of next.values()) if (head !== undefined) acc = xor(acc, accumulatorTerm(active, head));
    }
    const storeText = sealStoreHead(active, store.epoch + 1, acc);
    await writeMeta(this.adapter, [...dirty.map((s) => ({ key: s.key, value: next.get(s.key)?.text ?? null })), { key: STORE_HEAD_KEY, value: storeText }]);
    this.#storeText = storeText;
    for (const slot of dirty) {
      slot.original = next.get(slot.key);
      slot.dirty = false;
    }
    this.#forceStore = false;
  }

  /** The new newest row of a session whose newest was deleted: its link and created_at. */
  async #top(slot: Slot): Promise<{ top: string; topAt: string }> {
    const { namespace, sessionId } = slot;
    for (let offset = 0; ; offset += 500) {
      const page = await this.adapter.listRows({ namespace, sessionId, limit: 500, offset });
      for (const row of page) {
        const envelope = parseEnvelope(row.payloadJson);
        if (envelope !== undefined) return { top: envelope.link, topAt: row.createdAt };
      }
      if (page.length < 500) throw sessionError(namespace, sessionId, 'its head names rows that are not stored (rows were deleted outside the store); nothing was written');
    }
  }
}

/** The rows with these ids in `namespace`, read one by one (deletions are small) or by a scan. */
export async function rowsOf(adapter: CheckpointAdapter, ids: readonly number[], namespace: string): Promise<CheckpointRow[]> {
  if (ids.length <= 64) {
    const rows: CheckpointRow[] = [];
    for (const id of ids) {
      const row = await adapter.getRow(id, namespace);
      if (row) rows.push(row);
    }
    return rows;
  }
  const wanted = new Set(ids);
  const rows: CheckpointRow[] = [];
  let afterId = Number.NEGATIVE_INFINITY;
  for (;;) {
    const page = await adapter.scanRows({ namespace, afterId, limit: 1000 });
    for (const row of page) if (wanted.has(row.id)) rows.push(row);
    const last = page[page.length - 1];
    if (page.length < 1000 || last === undefined) return rows;
    afterId = last.id;
  }
}

/** A conflict from a sealed insert, worded as a plain one is. */
export function insertConflict(error: unknown, prepared: PreparedCheckpoint & { id?: number }): unknown {
  if (isCheckpointConflictError(error) && prepared.id === undefined && !isIdLimitError(error)) {
    return new CheckpointConflictError(`source_ref already exists in namespace '${prepared.namespace}'`, { cause: error, ids: error.ids });
  }
  return error;
}

