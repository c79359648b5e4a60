import { CheckpointConflictError, CheckpointError, CheckpointIntegrityError, CheckpointNotFoundError, CheckpointValidationError, isCheckpointConflictError, isCheckpointIntegrityError, type IntegrityFailure } from '../errors.js';
import { resolveLimits, type CheckpointLimits } from '../limits.js';
import type { CheckpointAdapter, InsertOptions, InsertPrecondition, SourceRefPrefixQuery, SourceRefRangeQuery, StorageReport } from '../port/adapter.js';
import { expireIdle, listPins, setPin, type ExpireIdleOptions, type ExpireIdleResult, type PinnedSession } from './idle-expiry.js';
import { storeStats, type StoreStats } from './store-stats.js';
import { CheckpointAdapterBase } from '../port/adapter-base.js';
import { selectSourceRefPrefix } from '../port/ordering.js';
import type { Checkpoint, CheckpointRow } from '../types.js';
import { MAX_SESSION_ID_LENGTH, resolveNamespace, validateId, validatePage, validateText, validateToken } from '../validation/fields.js';
import { nonNegativeInteger } from '../validation/integers.js';
import { normalizeTimestamp } from '../validation/timestamp.js';
import { prepareCheckpoint, writtenPair, type CreateCheckpointInput, type PreparedCheckpoint } from './prepare.js';
import type { DeleteResult, PruneResult, SessionSummary, VerifyReport } from './results.js';
import { isIdLimitError } from '../port/id-limit.js';
import { batchClashError, firstBatchClash } from '../port/batch-clash.js';
import { integrityError, rowFailure, toCheckpoint, verifyRow, verifyRows } from './verify-row.js';
import { toCheckpointWithId } from './lazy-checkpoint.js';
import { DEFAULT_VERIFIED_TEXT_CACHE, VerifiedPayloads } from './verified-payloads.js';
import { checkRows as checkPlainRows, type CheckedRow } from './checked-rows.js';
import { isKeyring, type Keyring } from '../seal/keyring.js';
import { SealedReader } from '../seal/sealed-reader.js';
import { insertConflict, rowsOf, sessionError, StoreSeal, type SealTx } from '../seal/store-seal.js';
import { META_NAMESPACE } from '../port/meta-rows.js';
import { parseEnvelope, type ChainPlace } from '../seal/row-envelope.js';
import { RowFieldChecks } from './row-field-checks.js';
import { sessionHeadKey, type SessionHead } from '../seal/heads.js';
import type { ChainRow } from '../seal/chain.js';
import { rekeyStore, type RekeyOptions, type RekeyReport } from '../seal/rekey.js';
import { applySealedImport, checkSealedBundle, planSealedImport, type SealedImportOptions } from '../seal/sealed-import.js';
import { listMeta, readMeta } from '../seal/meta-access.js';
import { SESSION_HEAD_PREFIX, STORE_HEAD_KEY } from '../seal/heads.js';

/** Options of {@link CheckpointStore}. */
export interface CheckpointStoreOptions {
  /** Caps, merged over `DEFAULT_LIMITS`. */
  limits?: Partial<CheckpointLimits>;
  /** Clock for default created_at values. Default is `() => new Date()`. */
  now?: () => Date;
  /**
   * Payload text, in UTF-16 code units, that the store keeps from rows it has read and verified
   * (from a row's second read on: a row read once is not worth its memory) and from rows it has
   * written (their text canonicalised and hashed by the store itself), so that a later read
   * of a row with exactly the same text and hash passes by a full comparison of the text instead
   * of hashing and scanning it again (agent loops re-read the same rows every step). Any difference, one byte of text or of hash, is verified from scratch; failures are
   * never kept; `verify()` and `scan()` always check from scratch. Default is 8 Mi (8388608);
   * `0` keeps nothing.
   *
   * @example
   * ```ts
   * new CheckpointStore(adapter, { verifiedTextCache: 0 }); // hash every row on every read
   * ```
   */
  verifiedTextCache?: number;
  /**
   * Seal and encrypt every row with these keys (a {@link Keyring}: from `loadKeyFile`,
   * `Keyring.generate` or `new Keyring`). Each write stores its payload as an AES-256-GCM
   * envelope bound to the row's identity, sealed with HMAC-SHA256 and chained to the session's
   * previous row; heads of each session and of the store record order and completeness. Every read
   * opens and checks what it returns and fails closed with `CheckpointIntegrityError`. Default is
   * none: a plain store, exactly as without this option. See docs/sealing.md.
   *
   * @example
   * ```ts
   * const store = new CheckpointStore(adapter, { keys: await loadKeyFile('checkpoints.keys') });
   * ```
   */
  keys?: Keyring;
  /**
   * With `keys`: accept plaintext rows on read (checked as plain rows are), for migrating a store
   * written without keys; new writes are sealed all the same, and `rekey()` seals the old rows.
   * Default is `false`: a plaintext row in a sealed store fails closed.
   */
  allowPlaintext?: boolean;
  /**
   * With `keys`: deflate payloads of 256 bytes or more before encrypting them, when that makes
   * them smaller. Default is `true` (an envelope of an incompressible payload is about 4/3 of its
   * size plus 200 bytes). Compression makes stored sizes depend on the payload's redundancy:
   * see docs/sealing.md before mixing secrets with text an attacker chooses in one payload.
   */
  compress?: boolean;
}

/** Namespace option shared by most calls. */
export interface NamespaceOption {
  /** Default is `"default"`. */
  namespace?: string;
}

/** Options of {@link CheckpointStore.list}. */
export interface ListOptions extends NamespaceOption {
  /** Only this session. Default is all sessions. */
  sessionId?: string;
  /** Page size, 1..maxListLimit. Default is `20`. */
  limit?: number;
  /** Rows to skip. Default is `0`. */
  offset?: number;
}

/** Options of {@link CheckpointStore.create}. */
export interface CreateOptions {
  /** Retention: keep only the newest N checkpoints of the session, in the same transaction. Default is unlimited. */
  keepLatest?: number;
}

/** Options of {@link CheckpointStore.delete}. */
export interface DeleteOptions extends NamespaceOption {
  /** Actually delete. Default is `false` (dry run: report what would go). */
  apply?: boolean;
  /** Allow deleting a row that fails verification (it is reported, never returned). Default is `false`. */
  force?: boolean;
}

/** Options of {@link CheckpointStore.prune}. A row is selected when it matches every criterion given. */
export interface PruneOptions extends NamespaceOption {
  /** Only this session. Default is every session. */
  sessionId?: string;
  /** Keep the newest N checkpoints of each session; older ones are selected. */
  keepLatest?: number;
  /** Select checkpoints created before this instant (RFC 3339 or Date). */
  olderThan?: string | Date;
  /** Actually delete. Default is `false` (dry run). */
  apply?: boolean;
}

/**
 * Re-reads of a sealed `latest` whose row and head disagree while writers keep changing the
 * session: after these, the last pair read decides.
 */
const LATEST_RECHECKS = 8;

/** Options of {@link CheckpointStore.verify}. */
export interface VerifyOptions {
  /** Only this namespace. Default is the whole store. */
  namespace?: string;
  /** Rows read per batch. Default is `500`. */
  batchSize?: number;
  /**
   * Sealed stores: after the scan, check the store head against this anchor digest (from
   * {@link CheckpointStore.sealHead}); a different head throws `CheckpointIntegrityError`. Default is none.
   */
  expectHead?: string;
}

/** Options of {@link CheckpointStore.deleteIds}. */
export interface DeleteIdsOptions extends NamespaceOption {}

/** Options of {@link CheckpointStore.scan}. */
export interface ScanOptions {
  /** Only this namespace. Default is the whole store. */
  namespace?: string;
  /** Rows read per batch. Default is `500`. */
  batchSize?: number;
  /**
   * Sealed stores: yield each verified row as stored (the envelope as `payloadJson`, its hash as
   * `payloadSha256`) instead of its plaintext: what a sealed export writes. Default is `false`.
   */
  stored?: boolean;
}

/**
 * Where a checked row sits in its session's chain (verify's scan and its re-reads). A row whose
 * seal fails still says where it sits, from its envelope: the chain is checked around it, not
 * broken by it. `undefined` for a plaintext row or one with no envelope.
 */
function chainRow(row: CheckpointRow, result: ReturnType<SealedReader['check']>): ChainRow | undefined {
  const place: ChainPlace | undefined = typeof result === 'string' ? parseEnvelope(row.payloadJson) : result.opened;
  return place === undefined ? undefined : { id: Number(row.id), link: place.link, prev: place.prev, createdAt: String(row.createdAt) };
}

/**
 * The checkpoint store: validates, canonicalises, hashes, writes through any
 * {@link CheckpointAdapter}, and verifies every row it returns. A row that fails verification is
 * never returned: the call throws `CheckpointIntegrityError` naming it.
 *
 * @example
 * ```ts
 * const store = new CheckpointStore(new MemoryAdapter());
 * const cp = await store.create({ namespace: 'app', sessionId: 's-1', payload: { step: 1 } });
 * const again = await store.get(cp.id, { namespace: 'app' });
 * ```
 */
export class CheckpointStore {
  /** The adapter this store writes through. */
  readonly adapter: CheckpointAdapter;
  /** The caps in force. */
  readonly limits: Readonly<CheckpointLimits>;
  readonly #now: (() => Date) | undefined;
  /** Reads are never refused for size or depth: a row written under larger caps stays readable. */
  readonly #readLimits = { maxPayloadBytes: Number.MAX_SAFE_INTEGER, maxDepth: Number.MAX_SAFE_INTEGER };
  /** Payloads verified under `#readLimits`, shared with the stores `transaction` binds. */
  #verified: VerifiedPayloads | undefined;
  /** The sealing of a store opened with keys, shared with the stores `transaction` binds. */
  #seal: StoreSeal | undefined;
  /** In a store bound to a transaction of a sealed store: the heads that transaction changes. */
  #sealTx: SealTx | undefined;

  constructor(adapter: CheckpointAdapter, options: CheckpointStoreOptions = {}) {
    this.adapter = adapter;
    this.limits = resolveLimits(options.limits);
    this.#now = options.now;
    const budget = options.verifiedTextCache === undefined ? DEFAULT_VERIFIED_TEXT_CACHE : nonNegativeInteger(options.verifiedTextCache, 'verifiedTextCache');
    this.#verified = budget > 0 ? new VerifiedPayloads(budget) : undefined;
    if (options.keys !== undefined) {
      if (!isKeyring(options.keys)) throw new CheckpointValidationError('keys must be a Keyring (from loadKeyFile, Keyring.generate or new Keyring)');
      const reader = new SealedReader(options.keys, options.allowPlaintext === true, budget, this.#verified);
      this.#seal = new StoreSeal(reader, options.compress !== false);
    } else if (options.allowPlaintext !== undefined || options.compress !== undefined) {
      throw new CheckpointValidationError('allowPlaintext and compress apply to a store opened with keys');
    }
  }

  /** The ids of the keyring this store seals with (`undefined` for a plain store). Never the keys. */
  get keyIds(): { activeId: string; ids: readonly string[] } | undefined {
    const keys = this.#seal?.keys;
    return keys === undefined ? undefined : { activeId: keys.activeId, ids: keys.ids };
  }

  /**
   * Validates and canonicalises without writing: the plan of a `create`.
   *
   * @example
   * ```ts
   * store.prepare({ sessionId: 's', payloadJson: '{"b":1,"a":1.0}' }).payloadJson; // '{"a":1.0,"b":1}'
   * ```
   */
  prepare(input: CreateCheckpointInput): PreparedCheckpoint {
    return prepareCheckpoint(input, this.limits, this.#now);
  }

  /**
   * Creates a checkpoint: one insert in one transaction (plus retention when `keepLatest` is given).
   *
   * @throws CheckpointValidationError for bad input; CheckpointConflictError when the source_ref is taken.
   * @example
   * ```ts
   * await store.create({ sessionId: 's-1', payload: { messages: [] }, sourceRef: 'run:42' });
   * ```
   */
  async create(input: CreateCheckpointInput, options: CreateOptions = {}): Promise<Checkpoint> {
    const prepared = this.prepare(input);
    return this.insertPrepared(prepared, options);
  }

  /**
   * Creates several checkpoints at once, all or nothing: each input is validated, canonicalised,
   * hashed and checked against the limits exactly as {@link create} does it, all of them before
   * anything is written (the first bad input throws, even when an earlier row's source_ref is
   * taken), then the rows go in with one call of the adapter's
   * `insertMany` (one multi-row statement on SQL adapters, where `create` per row costs a
   * statement each). Resolves to the records in the order of `inputs`, ids ascending. Works inside
   * {@link transaction} (it joins it) and outside (its own). The error for a refused row is the one
   * `create` would throw for the first row that cannot go in (a source_ref taken, also by an
   * earlier input of the batch, whose error then names no id; the id limit), and the store is left
   * as it was (on a sealed store inside a caller's transaction, see below). No retention option.
   *
   * Two batches written at once on PostgreSQL that take some of the same source_refs in opposite
   * orders can deadlock (each waits on the other's uncommitted rows): the server aborts one, whose
   * caller gets the driver's retryable deadlock error (`40P01`) and nothing of its batch stays,
   * as with sequential creates in two transactions. Inserting the rows in ref order would avoid
   * it; they are not sorted because each row draws its id as it goes in, and ids must ascend in
   * the order of `inputs`.
   *
   * A sealed store creates the rows one by one with `create` in one transaction (each seal chains
   * to the row before it, which a batch would have to compute ahead): correct, not faster. Inside
   * a caller's transaction a failed batch there may leave its earlier rows in that transaction, as
   * a failed `create` leaves the rows before it: let the error end the transaction.
   *
   * @throws CheckpointValidationError for the first bad input; CheckpointConflictError as `create`.
   * @example
   * ```ts
   * const [message, index] = await store.createMany([
   *   { sessionId: 's-1', kind: 'message', payload: { text: 'hi' }, sourceRef: 'm/1' },
   *   { sessionId: 's-1', kind: 'index', payload: { ref: 'm/1' }, sourceRef: 'i/1' },
   * ]);
   * ```
   */
  async createMany(inputs: readonly CreateCheckpointInput[]): Promise<Checkpoint[]> {
    if (!Array.isArray(inputs)) throw new CheckpointValidationError('createMany takes an array of checkpoint inputs');
    return this.insertPreparedMany(inputs.map((input) => this.prepare(input)));
  }

  /**
   * {@link createMany} for checkpoints prepared already (with {@link prepare}): for a writer that
   * needs a row's hash before it writes the row that names it (a value cut over part rows), and
   * so prepares each row once. Explicit ids are not taken here (use {@link insertPrepared}).
   *
   * @example
   * ```ts
   * const part = store.prepare({ sessionId: 's', kind: 'part', payload: { text }, sourceRef: 'p/1' });
   * await store.insertPreparedMany([part, store.prepare({ sessionId: 's', payload: { parts: [part.payloadSha256] }, sourceRef: 'v/1' })]);
   * ```
   */
  async insertPreparedMany(prepared: readonly PreparedCheckpoint[]): Promise<Checkpoint[]> {
    if (!Array.isArray(prepared)) throw new CheckpointValidationError('insertPreparedMany takes an array of prepared checkpoints');
    if (prepared.length === 0) return [];
    const rows = prepared.map(rowOf);
    if (this.#seal !== undefined) {
      const clash = firstBatchClash(rows);
      return this.transaction(async (tx) => {
        const out: Checkpoint[] = [];
        for (let k = 0; k < prepared.length; k++) {
          if (k === clash) throw batchClashError(rows[k] as Omit<CheckpointRow, 'id'>);
          // Without an explicit id, as on the plain path (rowOf leaves it out).
          const { id: _, ...one } = prepared[k] as PreparedCheckpoint & { id?: number };
          out.push(await tx.insertPrepared(one));
        }
        return out;
      });
    }
    const adapter = this.adapter;
    let ids: number[];
    try {
      // An adapter written against the interface without the member gets the base class's default.
      ids = adapter.insertMany ? await adapter.insertMany(rows) : await CheckpointAdapterBase.prototype.insertMany.call(adapter, rows);
    } catch (error) {
      const namespaces = new Set(rows.map((row) => row.namespace));
      if (isCheckpointConflictError(error) && !isIdLimitError(error) && namespaces.size === 1) {
        throw new CheckpointConflictError(`source_ref already exists in namespace '${rows[0]?.namespace}'`, { cause: error, ids: error.ids });
      }
      throw error;
    }
    if (ids.length !== rows.length) throw new CheckpointError(`the adapter's insertMany returned ${ids.length} ids for ${rows.length} rows`);
    for (const one of prepared) this.#written(one);
    return rows.map((row, k) => toCheckpointWithId(row, ids[k] as number));
  }

  /**
   * Inserts an already prepared checkpoint, with an explicit `id` when given (import keeps ids).
   * The record returned is built from what was hashed, not read back.
   */
  async insertPrepared(prepared: PreparedCheckpoint & { id?: number }, options: CreateOptions = {}): Promise<Checkpoint> {
    const insertOptions: InsertOptions = {};
    if (options.keepLatest !== undefined) insertOptions.keepLatest = validateId(options.keepLatest, 'keepLatest');
    const seal = this.#seal;
    if (seal !== undefined) {
      try {
        if (this.#sealTx === undefined && prepared.id === undefined && insertOptions.keepLatest === undefined) {
          const record = await seal.insertOptimistic(this.adapter, prepared);
          if (record !== undefined && record !== false) return record;
        }
        return await this.#sealedWrite(async (tx) => (await tx.insert(prepared, prepared.id, insertOptions.keepLatest)).record);
      } catch (error) {
        throw insertConflict(error, prepared);
      }
    }
    const row = rowOf(prepared);
    let id: number;
    try {
      ({ id } = await this.adapter.insert(prepared.id === undefined ? row : { ...row, id: prepared.id }, insertOptions));
    } catch (error) {
      if (isCheckpointConflictError(error) && prepared.id === undefined && !isIdLimitError(error)) {
        throw new CheckpointConflictError(`source_ref already exists in namespace '${prepared.namespace}'`, { cause: error, ids: error.ids });
      }
      throw error;
    }
    this.#written(prepared);
    return toCheckpointWithId(row, id);
  }

  /**
   * Inserts an already prepared checkpoint only when the rows `precondition` names exist, in one
   * atomic step of the adapter ({@link CheckpointAdapter.insertIfPresent}): for writers whose row
   * refers to other rows. Resolves to the new record, or to `undefined` when nothing was inserted
   * (a required row missing or different, the sourceRef taken, the id limit reached): take the
   * path that tells these apart, a transaction that checks and inserts.
   *
   * `options.forgetText`: the SHA-256 of a payload this writer will not read back, typically the
   * row this one supersedes (a workflow's previous snapshot). The store's verified-text memo keeps
   * the text of every row it writes, because a writer reads its rows back (decision record 0040);
   * for a writer whose rows are each superseded by the next, the superseded texts would stay until
   * the memo's budget pushed them out, each outliving the young generation at the garbage
   * collector's cost (decision record 0052). The text under that SHA-256 leaves the memo once the
   * row is inserted; if it is read after all, it is verified in full, as any row this process did
   * not write.
   *
   * @throws CheckpointError when the adapter does not declare `capabilities.conditionalInserts`.
   * @example
   * ```ts
   * const row = await store.insertPreparedIfPresent(store.prepare(input), { present: [{ sourceRef: 'parent' }] });
   * if (row === undefined) await store.transaction(async (tx) => { ... });
   * ```
   */
  async insertPreparedIfPresent(prepared: PreparedCheckpoint, precondition: InsertPrecondition, options?: { forgetText?: string }): Promise<Checkpoint | undefined> {
    if (this.#seal !== undefined) return this.#sealedInsertIfPresent(prepared, precondition);
    const adapter = this.adapter;
    if (adapter.capabilities.conditionalInserts !== true || !adapter.insertIfPresent) {
      throw new CheckpointError('this store\'s adapter has no conditional insert (capabilities.conditionalInserts)');
    }
    const row = rowOf(prepared);
    const id = await adapter.insertIfPresent(row, precondition);
    if (id === undefined) return undefined;
    this.#written(prepared);
    const forget = options?.forgetText;
    if (forget !== undefined) this.#verified?.forget(forget);
    return toCheckpointWithId(row, id);
  }

  /**
   * {@link insertPreparedMany} only when the rows `precondition` names exist, in one atomic step
   * of the adapter ({@link CheckpointAdapter.insertManyIfPresent}): every row goes in, or none.
   * Resolves to the records in the order of `prepared` (built from what was hashed), or to
   * `undefined` when nothing was inserted (a required row missing or different, a ref taken by a
   * stored row or an earlier row of the batch, the id limit, or a batch the adapter cannot check
   * in one step): take the path that tells these apart, a transaction that checks and inserts.
   * The required rows are looked up in the namespace of the first row.
   *
   * @throws CheckpointError when the adapter has no `insertManyIfPresent`, or the store is sealed
   *   (a sealed row's seal chains to the row before it); check {@link canInsertManyIfPresent}.
   * @example
   * ```ts
   * const rows = store.canInsertManyIfPresent ? await store.insertPreparedManyIfPresent([a, b], { present: [{ sourceRef: 'c/7', payloadSha256 }] }) : undefined;
   * if (rows === undefined) await store.transaction(async (tx) => { ... });
   * ```
   */
  async insertPreparedManyIfPresent(prepared: readonly PreparedCheckpoint[], precondition: InsertPrecondition): Promise<Checkpoint[] | undefined> {
    if (!Array.isArray(prepared)) throw new CheckpointValidationError('insertPreparedManyIfPresent takes an array of prepared checkpoints');
    const adapter = this.adapter;
    if (this.#seal !== undefined || !adapter.insertManyIfPresent) {
      throw new CheckpointError('this store has no conditional multi-row insert (a sealed store, or an adapter without insertManyIfPresent)');
    }
    if (prepared.length === 0) return [];
    const rows = prepared.map(rowOf);
    const ids = await adapter.insertManyIfPresent(rows, precondition);
    if (ids === undefined) return undefined;
    if (ids.length !== rows.length) throw new CheckpointError(`the adapter's insertManyIfPresent returned ${ids.length} ids for ${rows.length} rows`);
    for (const one of prepared) this.#written(one);
    return rows.map((row, k) => toCheckpointWithId(row, ids[k] as number));
  }

  /**
   * Whether {@link insertPreparedManyIfPresent} is available: the adapter has
   * `insertManyIfPresent` and the store is not sealed.
   */
  get canInsertManyIfPresent(): boolean {
    return this.#seal === undefined && typeof this.adapter.insertManyIfPresent === 'function';
  }

  /**
   * The verified checkpoint with this id in this namespace.
   *
   * @throws CheckpointNotFoundError when absent from the namespace (even if another namespace has it).
   * @example
   * ```ts
   * const cp = await store.get(7, { namespace: 'app' });
   * ```
   */
  async get(id: number, options: NamespaceOption = {}): Promise<Checkpoint> {
    validateId(id);
    const namespace = resolveNamespace(options.namespace);
    const row = await this.adapter.getRow(id, namespace);
    if (!row) throw new CheckpointNotFoundError(`Checkpoint ${id} not found in namespace '${namespace}'`);
    return this.#verifyRow(row);
  }

  /**
   * The verified checkpoint with this id in any namespace, or `undefined`. Meant for import and
   * administration, which must see ids store-wide; applications should use {@link get}.
   */
  async findById(id: number): Promise<Checkpoint | undefined> {
    validateId(id, 'id');
    const row = await this.adapter.getRowAnyNamespace(id);
    return row ? this.#verifyRow(row) : undefined;
  }

  /** The verified checkpoint holding `sourceRef` in `namespace`, or `undefined`. */
  async findBySourceRef(namespace: string, sourceRef: string): Promise<Checkpoint | undefined> {
    validateToken(namespace, 'namespace');
    const row = await this.adapter.findBySourceRef(namespace, sourceRef);
    return row ? this.#verifyRow(row) : undefined;
  }

  /**
   * The verified checkpoints holding these sourceRefs in `namespace`, one per distinct ref found,
   * in no particular order (refs no row holds are left out): one adapter call where the adapter has
   * `findBySourceRefs`, one `findBySourceRef` per ref otherwise. One bad row fails the whole call,
   * naming every bad row.
   *
   * @example
   * ```ts
   * const rows = await store.findBySourceRefs('app', ['run:42', 'run:43']);
   * ```
   */
  async findBySourceRefs(namespace: string, sourceRefs: readonly string[]): Promise<Checkpoint[]> {
    validateToken(namespace, 'namespace');
    if (!Array.isArray(sourceRefs) || sourceRefs.some((ref) => typeof ref !== 'string')) {
      throw new CheckpointValidationError('sourceRefs must be an array of strings');
    }
    const refs = [...new Set(sourceRefs)];
    if (refs.length === 0) return [];
    if (this.adapter.findBySourceRefs) return this.#verifyRows(await this.adapter.findBySourceRefs(namespace, refs));
    const rows: CheckpointRow[] = [];
    for (const ref of refs) {
      const row = await this.adapter.findBySourceRef(namespace, ref);
      if (row) rows.push(row);
    }
    return this.#verifyRows(rows);
  }

  /**
   * Verified checkpoints of a namespace whose sourceRef starts with `prefix`, ordered by sourceRef
   * (code point order), for callers that encode a hierarchy into source refs. One bad row fails
   * the whole call, naming every bad row. Adapters without `listBySourceRefPrefix` are scanned.
   *
   * @example
   * ```ts
   * const runs = await store.listBySourceRefPrefix({ namespace: 'app', prefix: 'run:42/', limit: 100 });
   * ```
   */
  async listBySourceRefPrefix(query: SourceRefPrefixQuery): Promise<Checkpoint[]> {
    validateToken(query.namespace, 'namespace');
    if (typeof query.prefix !== 'string' || query.prefix === '') throw new CheckpointValidationError('prefix must be a non-empty string');
    validateId(query.limit, 'limit');
    if (query.kind !== undefined) validateToken(query.kind, 'kind');
    if (this.adapter.listBySourceRefPrefix) {
      if (query.kind !== undefined && !this.#servesKind()) return this.#prefixOfKind(query, query.kind);
      return this.#verifyRows(await this.adapter.listBySourceRefPrefix(query));
    }
    const all: CheckpointRow[] = [];
    for await (const batch of this.#rawBatches(query.namespace)) all.push(...batch);
    return this.#verifyRows(selectSourceRefPrefix(all, query));
  }

  /**
   * Verified checkpoints of several sourceRef prefix ranges, one list per query in the order of
   * `queries`, each as {@link listBySourceRefPrefix} reads it after passing over its first
   * `offset` rows (default 0). The adapter's `listBySourceRefRanges` reads them all in one step
   * when it has the member (and serves `kind` where a query asks for one); otherwise each range is
   * read on its own, its start found by the adapter's `sourceRefAt`. Every returned row is
   * verified; one bad row fails the whole call.
   *
   * @example
   * ```ts
   * const [page, [newest]] = await store.listBySourceRefRanges([
   *   { namespace: 'app', prefix: 'm/t1/', offset: 480, limit: 41 },
   *   { namespace: 'app', prefix: 'c/t1/', descending: true, limit: 1 },
   * ]);
   * ```
   */
  async listBySourceRefRanges(queries: readonly SourceRefRangeQuery[]): Promise<Checkpoint[][]> {
    if (!Array.isArray(queries)) throw new CheckpointValidationError('queries must be an array');
    for (const query of queries) {
      validateToken(query.namespace, 'namespace');
      if (typeof query.prefix !== 'string' || query.prefix === '') throw new CheckpointValidationError('prefix must be a non-empty string');
      validateId(query.limit, 'limit');
      if (query.kind !== undefined) validateToken(query.kind, 'kind');
      if (query.offset !== undefined && (!Number.isSafeInteger(query.offset) || query.offset < 0)) throw new CheckpointValidationError('offset must be a non-negative safe integer');
    }
    if (queries.length === 0) return [];
    const ranges = this.adapter.listBySourceRefRanges;
    // A kind filter goes to the member only where the adapter declares it serves kinds in range
    // reads (`sourceRefKind`, which the conformance case checks it under): inheriting the base's
    // listBySourceRefPrefix says nothing of this member.
    if (ranges && (this.adapter.capabilities.sourceRefKind === true || queries.every((q) => q.kind === undefined))) {
      const lists = await ranges.call(this.adapter, queries);
      if (!Array.isArray(lists) || lists.length !== queries.length) throw new CheckpointError(`the adapter's listBySourceRefRanges returned ${Array.isArray(lists) ? lists.length : 'no'} lists for ${queries.length} queries`);
      const verified = this.#verifyRows(lists.flat());
      const out: Checkpoint[][] = [];
      let at = 0;
      for (const list of lists) {
        out.push(verified.slice(at, at + list.length));
        at += list.length;
      }
      return out;
    }
    const out: Checkpoint[][] = [];
    for (const { offset = 0, ...range } of queries) {
      if (offset === 0) {
        out.push(await this.listBySourceRefPrefix(range));
        continue;
      }
      // The ref `offset - 1` rows in; the rows after it are read (and verified) as a plain range.
      const at = { ...range, offset: offset - 1 };
      const last =
        this.adapter.sourceRefAt && (range.kind === undefined || this.#servesKind())
          ? await this.adapter.sourceRefAt(at)
          : (await this.listBySourceRefPrefix({ ...range, limit: offset }))[offset - 1]?.sourceRef ?? undefined;
      if (last === undefined) out.push([]);
      else out.push(await this.listBySourceRefPrefix({ ...range, ...(range.descending === true ? { before: last } : { after: last }) }));
    }
    return out;
  }

  /**
   * A page of a namespace, newest first (created_at desc, id desc). One bad row fails the whole
   * page, and the error names every bad row of the page.
   *
   * @example
   * ```ts
   * const page = await store.list({ namespace: 'app', sessionId: 's-1', limit: 50 });
   * ```
   */
  async list(options: ListOptions = {}): Promise<Checkpoint[]> {
    const namespace = resolveNamespace(options.namespace);
    const { limit, offset } = validatePage(options.limit ?? 20, options.offset ?? 0, this.limits.maxListLimit);
    const query = { namespace, limit, offset, ...(options.sessionId === undefined ? {} : { sessionId: this.#session(options.sessionId) }) };
    const seal = this.#seal;
    if (seal === undefined) return verifyRows(await this.adapter.listRows(query), this.#readLimits, this.#verified);
    if (query.sessionId === undefined) return seal.reader.verifyRows(await this.adapter.listRows(query));
    // A session's page is checked against its head as well: order, copies, and (from the start) the newest row.
    const [rows, head] = await Promise.all([this.adapter.listRows(query), seal.readHead(this.adapter, namespace, query.sessionId)]);
    const passed = seal.reader.passAll(rows);
    seal.checkSessionPage(namespace, query.sessionId, head, passed.map((p) => ({ id: p.record.id, createdAt: p.record.createdAt, opened: p.opened })), offset === 0);
    return passed.map((p) => p.record);
  }

  /**
   * The newest checkpoint of a session, or `undefined` when it has none.
   *
   * @example
   * ```ts
   * const last = await store.latest('s-1', { namespace: 'app' });
   * ```
   */
  async latest(sessionId: string, options: NamespaceOption = {}): Promise<Checkpoint | undefined> {
    const namespace = resolveNamespace(options.namespace);
    const session = this.#session(sessionId);
    const seal = this.#seal;
    if (seal === undefined) {
      const row = await this.adapter.latestRow(namespace, session);
      return row ? verifyRow(row, this.#readLimits, this.#verified) : undefined;
    }
    // The newest row must be the one the session's head names: deleting newer rows, or putting an
    // older copy of the session back, fails here.
    const adapter = this.adapter;
    const check = (row: CheckpointRow | undefined, head: SessionHead | undefined): Checkpoint | undefined => {
      const passed = row === undefined ? [] : seal.reader.passAll([row]);
      seal.checkSessionPage(namespace, session, head, passed.map((p) => ({ id: p.record.id, createdAt: p.record.createdAt, opened: p.opened })), true);
      return passed[0]?.record;
    };
    const [row, head] = await Promise.all([adapter.latestRow(namespace, session), seal.readHead(adapter, namespace, session)]);
    try {
      return check(row, head);
    } catch (error) {
      if (!isCheckpointIntegrityError(error) || this.#sealTx !== undefined) throw error;
    }
    // The two reads are not one snapshot: a writer may have committed between them. Read the head
    // before and after the row; the same head text twice (every write of the session changes it)
    // means the row read saw that head's state, and the verdict stands.
    for (let attempt = 0; ; attempt++) {
      const before = await seal.readHead(adapter, namespace, session);
      const again = await adapter.latestRow(namespace, session);
      const after = await seal.readHead(adapter, namespace, session);
      if (before?.text === after?.text || attempt >= LATEST_RECHECKS) return check(again, after);
    }
  }

  /**
   * A session's checkpoints, newest first. Same as `list` with a `sessionId`.
   *
   * @example
   * ```ts
   * const last10 = await store.history('s-1', { namespace: 'app', limit: 10 });
   * ```
   */
  async history(sessionId: string, options: Omit<ListOptions, 'sessionId'> = {}): Promise<Checkpoint[]> {
    return this.list({ ...options, sessionId });
  }

  /**
   * Every session of a namespace with its size and newest checkpoint, most recently active first.
   *
   * @example
   * ```ts
   * for (const s of await store.sessions({ namespace: 'app' })) console.log(s.sessionId, s.count);
   * ```
   */
  async sessions(options: NamespaceOption = {}): Promise<SessionSummary[]> {
    const namespace = resolveNamespace(options.namespace);
    const rows = await this.adapter.sessions(namespace);
    return rows.map((r) => ({ sessionId: r.sessionId, count: r.count, latestId: r.latestId, latestCreatedAt: r.latestCreatedAt }));
  }

  /**
   * Deletes one checkpoint. A dry run unless `apply: true`; the result carries the verified
   * pre-image. A row that fails verification can only be deleted with `force: true`.
   *
   * @example
   * ```ts
   * await store.delete(7, { namespace: 'app' });               // dry run
   * await store.delete(7, { namespace: 'app', apply: true });  // deletes
   * ```
   */
  async delete(id: number, options: DeleteOptions = {}): Promise<DeleteResult> {
    validateId(id);
    const namespace = resolveNamespace(options.namespace);
    const apply = options.apply === true;
    const seal = this.#seal;
    const body = async (tx: CheckpointAdapter, sealTx: SealTx | undefined): Promise<DeleteResult> => {
      const row = await tx.getRow(id, namespace);
      if (!row) throw new CheckpointNotFoundError(`Checkpoint ${id} not found in namespace '${namespace}'`);
      const checked = seal === undefined ? rowFailure(row, this.#readLimits) : seal.reader.check(row, undefined, false);
      const reason = typeof checked === 'string' ? checked : undefined;
      if (reason !== undefined && options.force !== true) throw integrityError([{ id, reason }]);
      const record = checked === undefined ? toCheckpoint(row) : typeof checked === 'string' ? null : checked.record;
      const result: DeleteResult = {
        dryRun: !apply,
        checkpoint: reason === undefined ? record : null,
        deleted: [],
        ...(reason === undefined ? {} : { integrityFailure: reason }),
      };
      if (!apply) return result;
      await sealTx?.remove([row]);
      if (!(await tx.deleteRow(id, namespace))) {
        throw new CheckpointNotFoundError(`Checkpoint ${id} disappeared before deletion`);
      }
      result.deleted = [id];
      return result;
    };
    if (seal !== undefined && apply) return this.#sealedWrite((sealTx, tx) => body(tx, sealTx));
    return this.adapter.transaction((tx) => body(tx, undefined));
  }

  /**
   * Deletes these checkpoints of a namespace (ids that are absent, or in another namespace, are
   * skipped); returns the ids that went, ascending. Rows are not verified first, as in
   * {@link prune}. On a sealed store their sessions' chains and heads follow in the same
   * transaction: what framework packages use instead of the adapter's `deleteRows`.
   *
   * @example
   * ```ts
   * await store.deleteIds([4, 9], { namespace: 'app' }); // [4, 9]
   * ```
   */
  async deleteIds(ids: readonly number[], options: DeleteIdsOptions = {}): Promise<number[]> {
    const namespace = resolveNamespace(options.namespace);
    if (!Array.isArray(ids)) throw new CheckpointValidationError('ids must be an array of positive integers');
    for (const id of ids) validateId(id, 'id');
    if (ids.length === 0) return [];
    if (this.#seal === undefined) return this.adapter.deleteRows(ids, namespace);
    return this.#sealedWrite(async (sealTx, tx) => {
      await sealTx.remove(await rowsOf(tx, ids, namespace));
      return tx.deleteRows(ids, namespace);
    });
  }

  /**
   * Retention by count and/or age, dry run unless `apply: true`. Selected rows are deleted without
   * being verified (a damaged old row must not block retention); they are never returned.
   *
   * @example
   * ```ts
   * await store.prune({ namespace: 'app', keepLatest: 50, apply: true });
   * await store.prune({ namespace: 'app', olderThan: '2026-01-01T00:00:00Z' }); // dry run
   * ```
   */
  async prune(options: PruneOptions): Promise<PruneResult> {
    const namespace = resolveNamespace(options.namespace);
    if (options.keepLatest === undefined && options.olderThan === undefined) {
      throw new CheckpointValidationError('prune needs keepLatest and/or olderThan');
    }
    const query = {
      namespace,
      ...(options.sessionId === undefined ? {} : { sessionId: this.#session(options.sessionId) }),
      ...(options.keepLatest === undefined ? {} : { keepLatest: nonNegativeInteger(options.keepLatest, 'keepLatest') }),
      ...(options.olderThan === undefined
        ? {}
        : { olderThan: normalizeTimestamp(options.olderThan instanceof Date ? options.olderThan.toISOString() : options.olderThan, 'olderThan') }),
    };
    const apply = options.apply === true;
    if (this.#seal !== undefined && apply) {
      return this.#sealedWrite(async (sealTx, tx) => {
        const selected = await tx.findPrunable(query);
        if (selected.length > 0) await sealTx.remove(await rowsOf(tx, selected, namespace));
        const deleted = selected.length > 0 ? await tx.deleteRows(selected, namespace) : [];
        return { dryRun: false, selected, deleted };
      });
    }
    return this.adapter.transaction(async (tx) => {
      const selected = await tx.findPrunable(query);
      const deleted = apply && selected.length > 0 ? await tx.deleteRows(selected, namespace) : [];
      return { dryRun: !apply, selected, deleted };
    });
  }

  /**
   * Deletes every checkpoint of a session, dry run unless `apply: true`. Rows are not verified
   * first (a damaged row must not keep a session alive); they are never returned.
   *
   * @example
   * ```ts
   * await store.deleteSession('s-1', { namespace: 'app', apply: true }); // { deleted: [4, 9], ... }
   * ```
   */
  async deleteSession(sessionId: string, options: NamespaceOption & { apply?: boolean } = {}): Promise<PruneResult> {
    const namespace = resolveNamespace(options.namespace);
    const session = this.#session(sessionId);
    if (options.apply !== true) {
      const selected = await this.adapter.findPrunable({ namespace, sessionId: session, keepLatest: 0 });
      return { dryRun: true, selected, deleted: [] };
    }
    const deleted =
      this.#seal === undefined
        ? await this.adapter.deleteSession(namespace, session)
        : await this.#sealedWrite(async (sealTx, tx) => {
            await sealTx.dropSession(namespace, session);
            return tx.deleteSession(namespace, session);
          });
    return { dryRun: false, selected: deleted, deleted };
  }

  /**
   * Deletes whole sessions (LangGraph threads, Agents sessions, plain sessions) whose newest write
   * is older than `idleFor`, except pinned ones; a dry run unless `apply: true`. Each session goes
   * in its own transaction that first shuts out other writers and deletes it only if nothing was
   * written to it since it was selected: a session written while the sweep runs is kept whole.
   * On a sealed store its chain and head go with it.
   *
   * @example
   * ```ts
   * await store.expireIdle({ idleFor: '30d' });               // dry run: what would go
   * await store.expireIdle({ idleFor: '30d', apply: true });  // { expired: [...], deletedRows, ... }
   * ```
   */
  async expireIdle(options: ExpireIdleOptions): Promise<ExpireIdleResult> {
    return expireIdle(this, options, this.#seal !== undefined, this.#now?.() ?? new Date());
  }

  /**
   * Pins a session so that {@link expireIdle} keeps it, whatever its age; resolves to whether it
   * was pinned already. The pin is a metadata entry (`checkpoint_meta` on SQL stores), so it costs
   * no row of the session and survives its rows being pruned. The session need not exist yet.
   *
   * @example
   * ```ts
   * await store.pin('thread-7', { namespace: 'langgraph' });
   * ```
   */
  async pin(sessionId: string, options: NamespaceOption = {}): Promise<boolean> {
    return setPin(this.adapter, resolveNamespace(options.namespace), this.#session(sessionId), true, this.#now?.() ?? new Date());
  }

  /** Removes a session's pin; resolves to whether it was pinned. */
  async unpin(sessionId: string, options: NamespaceOption = {}): Promise<boolean> {
    return setPin(this.adapter, resolveNamespace(options.namespace), this.#session(sessionId), false, this.#now?.() ?? new Date());
  }

  /** The pinned sessions of a namespace, or of the whole store when no namespace is given. */
  async pins(options: { namespace?: string } = {}): Promise<PinnedSession[]> {
    return listPins(this.adapter, options.namespace === undefined ? undefined : resolveNamespace(options.namespace));
  }

  /**
   * What takes the space: rows, payload bytes, oldest and newest write per namespace and per
   * session, largest first, with the database file's or relations' size when the adapter reports
   * it. Rows are counted, not verified.
   *
   * @example
   * ```ts
   * const { namespaces } = await store.stats();
   * namespaces[0]?.sessions[0]; // { sessionId, rows, bytes, oldest, newest, pinned }
   * ```
   */
  async stats(options: { namespace?: string } = {}): Promise<StoreStats> {
    return storeStats(this.adapter, options.namespace);
  }

  /**
   * The size of the database file (SQLite: pages, free pages, journal mode) or of the store's
   * tables (PostgreSQL: sizes with indexes, live and dead tuples, last vacuums), or `null` when the
   * adapter reports none.
   */
  async storageReport(): Promise<StorageReport | null> {
    return this.adapter.storageReport ? this.adapter.storageReport() : null;
  }

  /**
   * Gives free space back to the file system: a dry run (the adapter's storage report, whose
   * `reclaimableBytes` is what it would give back) unless `apply: true`; SQLite runs `VACUUM`.
   * An adapter without `compact` (PostgreSQL, whose VACUUM is the database owner's to run)
   * answers with its report and `compacted: false`.
   */
  async compact(options: { apply?: boolean } = {}): Promise<{ dryRun: boolean; compacted: boolean; before: StorageReport | null; after: StorageReport | null }> {
    const before = await this.storageReport();
    if (options.apply !== true || !this.adapter.compact) return { dryRun: options.apply !== true, compacted: false, before, after: null };
    const after = await this.adapter.compact();
    return after === undefined ? { dryRun: false, compacted: false, before, after: null } : { dryRun: false, compacted: true, before, after };
  }

  /**
   * Scans a namespace or the whole store and reports every row that fails verification. Never
   * throws for bad rows: that is its job. On a sealed store it may run beside writers: a chain
   * that looks out of step with its head is read again from a settled state (docs/sealing.md,
   * "What each read checks") and reported only if the problem is still there.
   *
   * @example
   * ```ts
   * const report = await store.verify();
   * if (report.failures.length) console.error(report.failures);
   * ```
   */
  async verify(options: VerifyOptions = {}): Promise<VerifyReport> {
    const namespace = options.namespace === undefined ? undefined : validateToken(options.namespace, 'namespace');
    const seal = this.#seal;
    let checked = 0;
    let sealed = 0;
    let plaintext = 0;
    const failures: IntegrityFailure[] = [];
    const chains = new Map<string, { namespace: string; sessionId: string; rows: ChainRow[] }>();
    const fields = new RowFieldChecks();
    for await (const batch of this.#rawBatches(namespace, options.batchSize)) {
      for (const row of batch) {
        checked++;
        if (seal === undefined) {
          const reason = rowFailure(row, this.#readLimits, fields);
          if (reason !== undefined) failures.push({ id: Number(row.id), reason });
          continue;
        }
        const result = seal.reader.check(row, fields, false);
        if (typeof result === 'string') failures.push({ id: Number(row.id), reason: result });
        else if (result.opened === undefined) plaintext++;
        else sealed++;
        const place = chainRow(row, result);
        if (place !== undefined && typeof row.namespace === 'string' && typeof row.sessionId === 'string') {
          const key = sessionHeadKey(row.namespace, row.sessionId);
          const chain = chains.get(key) ?? { namespace: row.namespace, sessionId: row.sessionId, rows: [] };
          chain.rows.push(place);
          chains.set(key, chain);
        }
      }
    }
    const report: VerifyReport = { namespace: namespace ?? null, checked, ok: checked - failures.length, failures };
    if (seal !== undefined) report.seal = { sealed, plaintext, ...(await seal.verifyChains(this.adapter, chains, namespace, this.#sealTx === undefined ? (adapter, ns, session) => this.#chainRows(adapter, ns, session) : undefined)) };
    if (options.expectHead !== undefined) {
      if (seal === undefined) throw new CheckpointValidationError('expectHead needs a store opened with keys');
      await seal.checkHead(this.adapter, options.expectHead);
    }
    return report;
  }

  /**
   * Every verified checkpoint of a namespace or the store, by id ascending, read in batches.
   * Bad rows do not stop the scan; after the last good row it throws one
   * `CheckpointIntegrityError` naming all of them, so a caller that writes a file (export) can
   * discard it.
   */
  async *scan(options: ScanOptions = {}): AsyncGenerator<Checkpoint> {
    const namespace = options.namespace === undefined ? undefined : validateToken(options.namespace, 'namespace');
    const failures: IntegrityFailure[] = [];
    const seal = this.#seal;
    for await (const batch of this.#rawBatches(namespace, options.batchSize)) {
      for (const row of batch) {
        if (seal !== undefined) {
          const result = seal.reader.check(row, undefined, false);
          if (typeof result === 'string') failures.push({ id: Number(row.id), reason: result });
          else yield options.stored === true ? toCheckpoint(row) : result.record;
          continue;
        }
        const reason = rowFailure(row, this.#readLimits);
        if (reason === undefined) yield toCheckpoint(row);
        else failures.push({ id: Number(row.id), reason });
      }
    }
    if (failures.length > 0) throw integrityError(failures);
  }

  /**
   * Runs `fn` in one transaction with a store bound to it; all or nothing.
   *
   * @example
   * ```ts
   * await store.transaction(async (tx) => {
   *   await tx.create({ sessionId: 's', payload: { a: 1 } });
   *   await tx.create({ sessionId: 's', payload: { a: 2 } });
   * });
   * ```
   */
  async transaction<T>(fn: (store: CheckpointStore) => Promise<T>): Promise<T> {
    const seal = this.#seal;
    if (seal === undefined || this.#sealTx !== undefined) return this.adapter.transaction((tx) => fn(this.#bound(tx, this.#sealTx)));
    try {
      return await this.adapter.transaction(async (tx) => {
        const sealTx = seal.begin(tx);
        const result = await fn(this.#bound(tx, sealTx));
        // The heads this transaction changed are written last, before it commits.
        await sealTx.flush();
        return result;
      });
    } finally {
      seal.forgetHeads();
    }
  }

  /**
   * Verifies rows one by one for readers that show each row with its status (the inspector's
   * timeline): plain rows as `checkRows` of `@session-checkpoint/core/internal` does, and on a
   * sealed store with their envelopes opened (`sealed: true`). A failed row is never handed out
   * as a record, only its raw columns.
   */
  checkRows(rows: readonly CheckpointRow[]): CheckedRow[] {
    const seal = this.#seal;
    if (seal === undefined) return checkPlainRows(rows);
    const fields = new RowFieldChecks();
    return rows.map((raw) => {
      const result = seal.reader.check(raw, fields);
      if (typeof result !== 'string') return { ok: true, row: result.record, sealed: result.opened !== undefined };
      return { ok: false, raw, error: integrityError([{ id: typeof raw.id === 'number' ? raw.id : Number(raw.id), reason: result }]) };
    });
  }

  /**
   * Whether the store holds sealed rows (its store head exists), whatever keys this store was
   * opened with: what a command opened without keys checks before it writes plaintext rows into a
   * sealed store, or shows envelopes as payloads.
   *
   * @example
   * ```ts
   * if (!store.keyIds && (await store.isSealed())) throw new Error('the store is sealed: open it with its keys');
   * ```
   */
  async isSealed(): Promise<boolean> {
    return (await readMeta(this.adapter, [STORE_HEAD_KEY])).length > 0;
  }

  /**
   * The anchor digest of a sealed store's head, `sc-head-v1:<writes>:<32 hex digits>`: keep it
   * outside the store (a deployment record, another system) and check it later with
   * {@link checkSealHead}. Every sealed write changes it. Replacing the whole store with an
   * older copy cannot be seen from inside the store; against this digest it can.
   *
   * @throws CheckpointValidationError on a store opened without keys.
   * @throws CheckpointIntegrityError when the store head fails.
   * @example
   * ```ts
   * const anchor = await store.sealHead(); // 'sc-head-v1:412:9f1c...'
   * ```
   */
  async sealHead(): Promise<string> {
    return this.#requireSeal('sealHead').headDigest(this.adapter);
  }

  /**
   * Checks the store head against a digest {@link sealHead} returned earlier: resolves when the
   * store is exactly at that head, throws `CheckpointIntegrityError` saying whether it is older
   * (rolled back, or replaced by an older copy), newer (written since) or another copy.
   *
   * @example
   * ```ts
   * await store.checkSealHead(anchor);
   * ```
   */
  async checkSealHead(expected: string): Promise<void> {
    await this.#requireSeal('checkSealHead').checkHead(this.adapter, expected);
  }

  /**
   * Key rotation: re-seals and re-encrypts, in batches, every row and head that is not under the
   * keyring's active key (and seals plaintext rows, on a store opened with `allowPlaintext`).
   * A dry run unless `apply: true`. Each batch is one transaction, so a rotation stopped at any
   * point (SIGKILL included) leaves every row sealed under one of the keys, and running it again
   * goes on where it stopped; writers may keep writing meanwhile. Open the store with the old
   * keys and the new one active (`oldKeys.with(newKeys)`), and give writers that keyring too.
   *
   * @example
   * ```ts
   * const store = await openSqliteStore(path, { keys: oldKeys.with(newKeys) });
   * await store.rekey();                 // { dryRun: true, rows: 1200, ... }
   * await store.rekey({ apply: true });  // then drop the old key
   * ```
   */
  async rekey(options: RekeyOptions = {}): Promise<RekeyReport> {
    const seal = this.#requireSeal('rekey');
    if (this.#sealTx !== undefined) throw new CheckpointValidationError('rekey runs its own transactions: call it outside transaction()');
    return rekeyStore(
      {
        seal,
        adapter: this.adapter,
        batches: (batchSize) => this.#rawBatches(undefined, batchSize),
        transaction: (fn) => this.transaction((tx) => fn(tx.#sealTx as SealTx, tx.adapter)),
      },
      options,
    );
  }

  /**
   * The session heads of a sealed store (of one namespace, or all), each checked, as stored: what
   * a sealed export carries so that its importer can check every chain. Inside a transaction they
   * are read under the seal lock, so rows read in the same transaction match them.
   */
  async sealHeads(options: NamespaceOption & { all?: boolean } = {}): Promise<string[]> {
    const seal = this.#requireSeal('sealHeads');
    const namespace = options.all === true ? undefined : options.namespace === undefined ? undefined : validateToken(options.namespace, 'namespace');
    if (this.#sealTx !== undefined) await this.#sealTx.lock();
    const heads: string[] = [];
    for (const entry of await listMeta(this.adapter, SESSION_HEAD_PREFIX)) {
      const claimed = JSON.parse(entry.value) as { ns?: unknown; session?: unknown };
      if (typeof claimed.ns !== 'string' || typeof claimed.session !== 'string' || sessionHeadKey(claimed.ns, claimed.session) !== entry.key) {
        throw new CheckpointIntegrityError(`The store's session head ${entry.key} is damaged: run verify`);
      }
      if (namespace !== undefined && claimed.ns !== namespace) continue;
      heads.push(seal.openHead(entry.value, claimed.ns, claimed.session).text);
    }
    return heads.sort();
  }

  /**
   * Imports the rows of a sealed bundle (envelopes, with explicit ids, in bundle order) and the
   * heads it carries; what `@session-checkpoint/bundle`'s `importBundle` runs for a sealed
   * bundle. The whole bundle is checked first (seals, heads, chains): one edited in transit is
   * refused. A dry run unless `apply: true`. See docs/sealing.md.
   *
   * @throws CheckpointIntegrityError for a bundle that fails its seals or chains.
   * @throws CheckpointValidationError for envelopes under a key neither the store nor `sourceKeys` holds.
   * @throws CheckpointConflictError as a plain import does, and for a session the store holds other sealed rows of.
   */
  async importSealed(rows: readonly CheckpointRow[], heads: readonly string[], options: SealedImportOptions = {}): Promise<{ dryRun: boolean; inserted: number[]; unchanged: number[] }> {
    const seal = this.#requireSeal('importSealed');
    const namespace = options.namespace === undefined ? undefined : validateToken(options.namespace, 'namespace');
    const bundle = checkSealedBundle(seal, rows, heads, options.sourceKeys);
    const plan = await planSealedImport(seal, this.adapter, bundle, namespace);
    if (options.apply !== true) return { dryRun: true, ...plan };
    if (plan.inserted.length === 0) return { dryRun: false, ...plan };
    return this.#sealedWrite(async (sealTx, tx) => {
      await sealTx.lock();
      // The store may have changed since the first plan; only this one is atomic with the inserts.
      const final = await planSealedImport(seal, tx, bundle, namespace);
      try {
        await applySealedImport(seal, sealTx, tx, bundle, final);
      } catch (error) {
        if (!isCheckpointConflictError(error)) throw error;
        throw new CheckpointConflictError('Checkpoint import conflicted with state changed during apply', { cause: error, ids: error.ids });
      }
      return { dryRun: false, ...final };
    });
  }

  #requireSeal(call: string): StoreSeal {
    if (this.#seal === undefined) throw new CheckpointValidationError(`${call} needs a store opened with keys`);
    return this.#seal;
  }

  /** Runs a write of a sealed store in this store's transaction, or in a new one. */
  async #sealedWrite<T>(body: (sealTx: SealTx, adapter: CheckpointAdapter) => Promise<T>): Promise<T> {
    if (this.#sealTx !== undefined) return body(this.#sealTx, this.adapter);
    return this.transaction((tx) => body(tx.#sealTx as SealTx, tx.adapter));
  }

  /** {@link insertPreparedIfPresent} of a sealed store: the required rows checked on their plaintext, in the locked transaction. */
  async #sealedInsertIfPresent(prepared: PreparedCheckpoint, precondition: InsertPrecondition): Promise<Checkpoint | undefined> {
    const seal = this.#seal as StoreSeal;
    const holds = async (tx: CheckpointAdapter): Promise<boolean> => {
      const refs = precondition.present.map((p) => p.sourceRef);
      const found = new Map<string, Checkpoint>();
      if (refs.length > 0) {
        const rows = tx.findBySourceRefs ? await tx.findBySourceRefs(prepared.namespace, refs) : [];
        if (!tx.findBySourceRefs) for (const ref of refs) { const row = await tx.findBySourceRef(prepared.namespace, ref); if (row) rows.push(row); }
        for (const record of seal.reader.verifyRows(rows)) found.set(String(record.sourceRef), record);
      }
      return precondition.present.every((required) => {
        const record = found.get(required.sourceRef);
        return record !== undefined && (required.payloadSha256 === undefined || record.payloadSha256 === required.payloadSha256);
      });
    };
    if (this.#sealTx === undefined) {
      // Outside a transaction, the optimistic write: the rows are read after the store head it
      // swaps is known, and any write since (a deletion too) changes that head, failing the swap.
      try {
        const record = await seal.insertOptimistic(this.adapter, prepared, () => holds(this.adapter));
        if (record === false) return undefined;
        if (record !== undefined) return record;
      } catch (error) {
        if (isCheckpointConflictError(error)) return undefined;
        throw error;
      }
    }
    return this.#sealedWrite(async (sealTx, tx) => {
      if (!(await holds(tx))) return undefined;
      try {
        return (await sealTx.insert(prepared)).record;
      } catch (error) {
        if (isCheckpointConflictError(error)) return undefined;
        throw error;
      }
    });
  }

  #verifyRows(rows: readonly CheckpointRow[]): Checkpoint[] {
    return this.#seal === undefined ? verifyRows(rows, this.#readLimits, this.#verified) : this.#seal.reader.verifyRows(rows);
  }

  /** A plain row just inserted: its pair goes into the verified-text memo when this store's `prepare` computed it (the writer reads it back). */
  #written(prepared: PreparedCheckpoint): void {
    const pair = this.#verified === undefined ? undefined : writtenPair(prepared);
    if (pair !== undefined) this.#verified?.written(pair.sha256, pair.json);
  }

  #verifyRow(row: CheckpointRow): Checkpoint {
    return this.#seal === undefined ? verifyRow(row, this.#readLimits, this.#verified) : this.#seal.reader.verifyRow(row);
  }

  /** Closes the adapter. Idempotent. */
  async close(): Promise<void> {
    await this.adapter.close();
  }

  #bound(adapter: CheckpointAdapter, sealTx?: SealTx): CheckpointStore {
    const bound = new CheckpointStore(adapter, { limits: this.limits, verifiedTextCache: 0, ...(this.#now ? { now: this.#now } : {}) });
    bound.#verified = this.#verified;
    bound.#seal = this.#seal;
    bound.#sealTx = sealTx;
    return bound;
  }

  #session(sessionId: unknown): string {
    return validateText(sessionId, 'session_id', MAX_SESSION_ID_LENGTH);
  }

  /** True when the adapter's `listBySourceRefPrefix` returns only rows of the query's `kind`. */
  #servesKind(): boolean {
    return this.adapter.capabilities.sourceRefKind === true || this.adapter.listBySourceRefPrefix === CheckpointAdapterBase.prototype.listBySourceRefPrefix;
  }

  /**
   * A `kind` range on an adapter that may not filter by kind: its pages without `kind`, verified
   * and filtered here, until `limit` rows of the kind are found or the range ends.
   */
  async #prefixOfKind(query: SourceRefPrefixQuery, kind: string): Promise<Checkpoint[]> {
    const { kind: _kind, ...rest } = query;
    const out: Checkpoint[] = [];
    let bound: Pick<SourceRefPrefixQuery, 'after' | 'before'> = {};
    for (;;) {
      const page = await (this.adapter.listBySourceRefPrefix as NonNullable<CheckpointAdapter['listBySourceRefPrefix']>)({ ...rest, ...bound });
      for (const row of this.#verifyRows(page)) {
        if (row.kind === kind) out.push(row);
        if (out.length === query.limit) return out;
      }
      const last = page[page.length - 1]?.sourceRef;
      if (page.length < query.limit || typeof last !== 'string') return out;
      bound = query.descending === true ? { before: last } : { after: last };
    }
  }

  /**
   * Where every row of one session sits in its chain, by id ascending, as verify's scan records
   * it (a row whose seal fails still says where it sits). Read in pages on `adapter` (the store's,
   * or a transaction's), not one snapshot: the caller reads the session's head before and after.
   */
  async #chainRows(adapter: CheckpointAdapter, namespace: string, sessionId: string): Promise<ChainRow[]> {
    const seal = this.#requireSeal('verify');
    const out: ChainRow[] = [];
    const limit = 500;
    for (let offset = 0; ; offset += limit) {
      const page = await adapter.listRows({ namespace, sessionId, limit, offset });
      for (const row of page) {
        const place = chainRow(row, seal.reader.check(row, undefined, false));
        if (place !== undefined) out.push(place);
      }
      if (page.length < limit) return out.sort((a, b) => a.id - b.id);
    }
  }

  async *#rawBatches(namespace: string | undefined, batchSize = 500): AsyncGenerator<CheckpointRow[]> {
    const limit = validateId(batchSize, 'batchSize');
    // From below every id, not from 0: a tampered row with an id of 0 or less must reach the row
    // check (verify reports it, export refuses it), as it does on list.
    let afterId = Number.NEGATIVE_INFINITY;
    for (;;) {
      const rows = await this.adapter.scanRows({ afterId, limit, ...(namespace === undefined ? {} : { namespace }) });
      if (rows.length === 0) return;
      // Metadata kept as rows (adapters without metaEntries) is not checkpoints: whole-store scans leave it out.
      yield namespace === undefined && this.adapter.capabilities.metaEntries !== true ? rows.filter((row) => row.namespace !== META_NAMESPACE) : rows;
      const last = Number(rows[rows.length - 1]?.id);
      // A damaged id column could stall the cursor; stop rather than loop forever.
      if (!(last > afterId)) return;
      afterId = last;
      if (rows.length < limit) return;
    }
  }
}

/** The row columns of a prepared checkpoint (without an id). */
function rowOf(prepared: PreparedCheckpoint): Omit<CheckpointRow, 'id'> {
  return {
    namespace: prepared.namespace,
    sessionId: prepared.sessionId,
    kind: prepared.kind,
    name: prepared.name,
    payloadJson: prepared.payloadJson,
    payloadSha256: prepared.payloadSha256,
    createdAt: prepared.createdAt,
    sourceRef: prepared.sourceRef,
  };
}
