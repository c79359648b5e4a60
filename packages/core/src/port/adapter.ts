import type { CheckpointRow, NewCheckpointRow } from '../types.js';

/**
 * What an adapter can promise beyond the contract. The conformance suite reads these instead of
 * skipping tests by adapter name: a case that needs a flag the adapter does not set is reported as
 * skipped. {@link CheckpointAdapterBase} declares every flag `false`; an adapter overrides the
 * getter for what it promises, so a flag added later reaches it with a safe default.
 */
export interface AdapterCapabilities {
  /** Several OS processes may use the same store at once (a SQLite file, PostgreSQL). Default is `false`. */
  readonly multiProcess: boolean;
  /** Data survives `close()` and a new adapter over the same location. Default is `false`. */
  readonly persistent: boolean;
  /**
   * Calls by other callers proceed while a transaction is open, instead of waiting for it to end
   * (PostgreSQL over a pool). Isolation holds either way; with this flag the conformance suite
   * also runs those calls to completion inside the open transaction. Default is `false`: they wait
   * (`MemoryAdapter`, SQLite).
   */
  readonly concurrentTransactions: boolean;
  /**
   * `listBySourceRefPrefix` honours {@link SourceRefPrefixQuery.kind}: it returns only rows of
   * that kind, and `limit` counts only those. Default is `false` (absent): the store facade then
   * leaves `kind` out of the adapter's query and filters verified rows itself, page by page.
   * {@link CheckpointAdapterBase}'s own scan honours it whatever this flag says.
   */
  readonly sourceRefKind?: boolean;
  /**
   * The adapter implements {@link CheckpointAdapter.transactionLock}: a named lock that a
   * transaction holds until it ends. Default is `false` (absent): callers that need one use their
   * own means (`@session-checkpoint/langgraph` then inserts a lock row and deletes it before the
   * commit, two statements more per transaction).
   */
  readonly transactionLocks?: boolean;
  /**
   * The adapter implements {@link CheckpointAdapter.insertIfPresent}. Default is `false` (absent):
   * callers check their preconditions themselves, in a transaction.
   */
  readonly conditionalInserts?: boolean;
  /**
   * The adapter keeps metadata entries natively ({@link CheckpointAdapter.readMeta} and the other
   * meta members; SQL: rows of `checkpoint_meta`). Default is `false` (absent):
   * {@link CheckpointAdapterBase} keeps them as ordinary rows of a reserved namespace
   * ({@link META_NAMESPACE}), which works on any adapter. Sealed stores keep their heads there.
   */
  readonly metaEntries?: boolean;
}

/** One metadata entry: a key and its text. */
export interface MetaEntry {
  key: string;
  value: string;
}

/** A change of a metadata entry: its new text, or `null` to remove it. */
export interface MetaChange {
  key: string;
  value: string | null;
  /** Set the entry only when it does not exist yet (a concurrent writer's entry is kept). Default is `false`. */
  ifAbsent?: boolean;
}

/** The compare-and-set of {@link CheckpointAdapter.insertWithMeta}. */
export interface MetaSwap {
  key: string;
  /** The text the entry must hold for anything to be written; `null`: the entry must be absent. */
  expected: string | null;
  /** Its new text. */
  value: string;
}

/** What {@link CheckpointAdapter.insertIfPresent} requires before it inserts. */
export interface InsertPrecondition {
  /**
   * Rows of the inserted row's namespace that must exist, by distinct source ref; with
   * `payloadSha256`, the row holding the ref must have recorded that SHA-256.
   */
  present: readonly { sourceRef: string; payloadSha256?: string }[];
  /**
   * Taken as {@link CheckpointAdapter.transactionLock} takes it, before the rows are checked, and
   * held until the insert commits. Default is no lock. An adapter whose writers run one at a time
   * may ignore it.
   */
  lockKey?: string;
}

/** Options of {@link CheckpointAdapter.insert}. */
export interface InsertOptions {
  /**
   * Retention: after the insert, in the same transaction, delete every row of the same
   * (namespace, sessionId) except the newest `keepLatest` (ordered createdAt desc, id desc).
   * Default is `undefined`: keep everything.
   */
  keepLatest?: number;
}

/** Result of {@link CheckpointAdapter.insert}. */
export interface InsertResult {
  /** The id of the new row (the given one for explicit ids). */
  id: number;
  /** Ids removed by retention, ascending. Empty without `keepLatest`. */
  pruned: number[];
}

/** A page of one namespace, newest first: `ORDER BY createdAt DESC, id DESC LIMIT limit OFFSET offset`. */
export interface ListRowsQuery {
  namespace: string;
  /** Only this session. Default is every session. */
  sessionId?: string;
  limit: number;
  offset: number;
}

/** A page of raw rows by id ascending, used by verify and export. Rows are returned whatever their content. */
export interface ScanRowsQuery {
  /** Only this namespace. Default is the whole store. */
  namespace?: string;
  /**
   * Return rows with `id > afterId`. The store's first page asks with `Number.NEGATIVE_INFINITY`,
   * so that rows whose id was tampered to 0 or below are scanned (and refused) too: an SQL
   * adapter must bind it as a value below every id (SQLite takes `-Infinity` as is; a PostgreSQL
   * `bigint` comparison needs the lowest `bigint` instead) or leave the bound out.
   */
  afterId: number;
  limit: number;
}

/** One session of a namespace, as {@link CheckpointAdapter.sessions} reports it. */
export interface SessionSummaryRow {
  sessionId: string;
  /** Rows in the session. */
  count: number;
  /** `createdAt` of the newest row (by createdAt desc, id desc). */
  latestCreatedAt: string;
  /** Id of that newest row. */
  latestId: number;
}

/**
 * Which rows {@link CheckpointAdapter.findPrunable} selects. A row is selected when it matches
 * every criterion given; with none given nothing is selected.
 */
export interface PruneQuery {
  namespace: string;
  /** Only this session. Default is every session of the namespace. */
  sessionId?: string;
  /** Select rows that are not among the newest `keepLatest` of their session. */
  keepLatest?: number;
  /** Select rows whose stored `createdAt` text is lower than this normalised timestamp. */
  olderThan?: string;
}

/**
 * A range of one namespace by `sourceRef`, as {@link CheckpointAdapter.listBySourceRefPrefix} reads
 * it: rows whose sourceRef starts with `prefix`, ordered by sourceRef in code point order (the
 * byte order of UTF-8, SQLite's BINARY and PostgreSQL's "C" collation).
 */
export interface SourceRefPrefixQuery {
  namespace: string;
  /** Non-empty prefix every returned sourceRef starts with. */
  prefix: string;
  /** Only refs greater than this one. Default is no lower bound beyond `prefix`. */
  after?: string;
  /** Only refs lower than this one. Default is no upper bound beyond `prefix`. */
  before?: string;
  /** Largest ref first. Default is `false` (ascending). */
  descending?: boolean;
  /** At most this many rows. */
  limit: number;
  /**
   * Only rows of this kind (`limit` counts only those). Default is every kind. Lets a caller skip
   * rows it would drop anyway without reading their payloads; an adapter serves it only when it
   * declares {@link AdapterCapabilities.sourceRefKind}.
   */
  kind?: string;
}

/** A position in a sourceRef range, as {@link CheckpointAdapter.sourceRefAt} reads it. */
export type SourceRefPositionQuery = Omit<SourceRefPrefixQuery, 'limit'> & {
  /** How many rows of the range to pass over (0: the first row). A non-negative safe integer. */
  offset: number;
};

/**
 * One range of {@link CheckpointAdapter.listBySourceRefRanges}: a prefix range as
 * {@link SourceRefPrefixQuery} has it, starting `offset` rows in.
 */
export type SourceRefRangeQuery = SourceRefPrefixQuery & {
  /** How many rows of the range to pass over before the first returned one. Default 0. A non-negative safe integer. */
  offset?: number;
};

/** Which rows {@link CheckpointAdapter.sessionStats} sums up. */
export interface SessionStatsQuery {
  /** Only this namespace. Default is every namespace (the reserved metadata namespace left out). */
  namespace?: string;
  /** Only this session of `namespace`. Default is every session. */
  sessionId?: string;
}

/** The size of one session, as {@link CheckpointAdapter.sessionStats} reports it. */
export interface SessionStatsRow {
  namespace: string;
  sessionId: string;
  /** Rows in the session. */
  rows: number;
  /** Sum of the UTF-8 byte lengths of their payload texts. */
  bytes: number;
  /** Lowest stored `createdAt` text (the oldest write). */
  oldest: string;
  /** Highest stored `createdAt` text (the newest write). */
  newest: string;
  /** Highest row id of the session: it grows with every insert, whatever `createdAt` the row carries. */
  maxId: number;
}

/** What the database file or relations take, as {@link CheckpointAdapter.storageReport} reports it. */
export type StorageReport =
  | {
      kind: 'sqlite';
      /** `page_count * page_size`: the main database file (a WAL file beside it is extra). */
      fileBytes: number;
      pageSize: number;
      pageCount: number;
      /** Pages on the free list: what a VACUUM gives back to the file system. */
      freePages: number;
      /** `freePages * pageSize`. */
      reclaimableBytes: number;
      journalMode: string;
    }
  | {
      kind: 'postgres';
      schema: string;
      /** One entry per table of the store, its indexes and TOAST included in `totalBytes`. */
      relations: {
        name: string;
        totalBytes: number;
        tableBytes: number;
        indexBytes: number;
        liveTuples: number;
        deadTuples: number;
        lastVacuum: string | null;
        lastAutovacuum: string | null;
      }[];
      /**
       * An estimate of what VACUUM would make reusable: each table's heap and TOAST size times its
       * share of dead tuples (the statistics collector's counts, which reach it a few seconds after
       * the deleting transaction). Plain VACUUM keeps the space for new rows of the table; only
       * VACUUM FULL (which locks the table) gives it back to the file system.
       */
      reclaimableBytes: number;
    };

/**
 * The storage port: the whole surface a backend implements. Adapters store and fetch rows; they
 * never canonicalise, hash or verify: the {@link CheckpointStore} facade does that, in one place.
 *
 * Extend {@link CheckpointAdapterBase} rather than implementing this directly: members added later
 * get defaults there, so third-party adapters keep compiling.
 *
 * Contract highlights (the conformance suite checks all of them):
 * - ids are positive, ascending, and never reused, even after the highest is deleted; an explicit id
 *   keeps later assigned ids above it;
 * - `(namespace, sourceRef)` is unique, `null` sourceRefs never collide; a clash throws
 *   {@link CheckpointConflictError};
 * - every query is scoped by namespace where it takes one: an id of another namespace is absent;
 * - `transaction(fn)` is all-or-nothing and isolated: other callers never see its uncommitted rows,
 *   and its rollback undoes its own writes only, never what another caller completed meanwhile.
 */
export interface CheckpointAdapter {
  /** What this adapter promises beyond the contract. Default (in the base class) is every flag `false`. */
  readonly capabilities: AdapterCapabilities;

  /**
   * Inserts one row (with its explicit `id` when given) and applies retention when asked, atomically.
   * @throws CheckpointConflictError when the id or `(namespace, sourceRef)` is taken.
   */
  insert(row: NewCheckpointRow, options?: InsertOptions): Promise<InsertResult>;

  /**
   * Inserts several rows as one all-or-nothing step and resolves to their ids, in the order of
   * `rows` (each above the one before). A row is refused for what would refuse it in
   * {@link insert}, in order: the first row that cannot go in decides the error, and nothing of
   * the batch stays, inside a caller's transaction too. A row whose `(namespace, sourceRef)` an
   * earlier row of the batch holds is refused with a {@link CheckpointConflictError} whose `ids`
   * is empty (that row was never kept); one held by a stored row names it, as `insert` does.
   * Explicit ids are honoured as `insert` honours them. No retention option. Optional (its
   * presence is the declaration): {@link CheckpointAdapterBase} gives a default that inserts the
   * rows one by one in a transaction; SQL adapters insert them with one multi-row statement.
   *
   * @throws CheckpointConflictError as {@link insert} throws it, for the first row refused.
   * @example
   * ```ts
   * const [messageId, indexId] = await adapter.insertMany?.([messageRow, indexRow]) ?? [];
   * ```
   */
  insertMany?(rows: readonly NewCheckpointRow[]): Promise<number[]>;

  /**
   * Inserts one row (without an explicit id) only when every row `precondition.present` names
   * exists, as one atomic step: the check and the insert see the same committed state, and a row
   * the check found cannot be deleted before the insert commits. Resolves to the new id, or to
   * `undefined` when nothing was inserted: a required row is missing or holds another SHA-256,
   * the row's sourceRef is taken, the id limit is reached, or the adapter cannot express the
   * check for this row. The caller then takes its own,
   * slower path, which tells these apart. Optional (declare {@link AdapterCapabilities.conditionalInserts}).
   *
   * @example
   * ```ts
   * const id = await adapter.insertIfPresent?.(row, { present: [{ sourceRef: 'parent' }], lockKey: 'app/thread-1' });
   * ```
   */
  insertIfPresent?(row: NewCheckpointRow, precondition: InsertPrecondition): Promise<number | undefined>;

  /**
   * {@link insertIfPresent} for several rows: inserts every row of `rows` (none with an explicit
   * id) as one atomic step, only when every row `precondition.present` names exists (by source
   * ref, and recorded SHA-256 where given) in the namespace of the first row, and no row's
   * `(namespace, sourceRef)` is held by a stored row or by an earlier row of the batch. The check
   * and the inserts see one committed state, and a required row found cannot be deleted before
   * the inserts commit. Resolves to the ids in the order of `rows` (each above the one before),
   * or to `undefined` when nothing was inserted: a required row missing or different, a ref taken
   * (also by a concurrent writer whose insert commits first), the id limit, or a batch the adapter
   * cannot check in one step (too many rows, a reshaped insert). Nothing of a refused batch
   * stays, inside a caller's transaction too. The caller then takes its own, slower path, which
   * tells these apart. Optional: its presence is the declaration, and
   * {@link CheckpointAdapterBase} gives none (a check in a transaction is what callers do
   * without it); SQL adapters run one multi-row `INSERT ... SELECT ... WHERE` statement.
   *
   * @example
   * ```ts
   * const ids = await adapter.insertManyIfPresent?.([messageRow, indexRow], { present: [{ sourceRef: 'c/7', payloadSha256 }] });
   * ```
   */
  insertManyIfPresent?(rows: readonly NewCheckpointRow[], precondition: InsertPrecondition): Promise<number[] | undefined>;

  /** The row with this id in this namespace, or `undefined`. */
  getRow(id: number, namespace: string): Promise<CheckpointRow | undefined>;

  /** The row with this id in any namespace, or `undefined` (import checks ids store-wide). */
  getRowAnyNamespace(id: number): Promise<CheckpointRow | undefined>;

  /** The row holding `sourceRef` in `namespace`, or `undefined`. */
  findBySourceRef(namespace: string, sourceRef: string): Promise<CheckpointRow | undefined>;

  /**
   * The rows holding these sourceRefs in `namespace`, at most one per distinct ref, in no
   * particular order; refs no row holds are left out. Optional so that adapters written against
   * the interface keep compiling; {@link CheckpointAdapterBase} gives a default that calls
   * `findBySourceRef` per ref (or scans the namespace once when that is the base's scan too).
   */
  findBySourceRefs?(namespace: string, sourceRefs: readonly string[]): Promise<CheckpointRow[]>;

  /**
   * Rows whose sourceRef starts with a prefix, ordered by sourceRef: a range of the
   * `(namespace, sourceRef)` index. Optional so that adapters written against the interface keep
   * compiling; {@link CheckpointAdapterBase} gives a default that scans the namespace.
   */
  listBySourceRefPrefix?(query: SourceRefPrefixQuery): Promise<CheckpointRow[]>;

  /**
   * The sourceRef of the row `query.offset` rows into a range (in the range's order, `kind`
   * honoured as {@link listBySourceRefPrefix} honours it), or `undefined` when the range is not
   * that long: where a page that starts at an offset begins, without reading the rows before it
   * (SQL: `LIMIT 1 OFFSET n` over the `(namespace, sourceRef)` index). Only a ref comes back, no
   * row to verify: the caller reads the page itself with `after` (or `before`) and verifies it.
   * Optional: callers without it read the rows before the page. {@link CheckpointAdapterBase}
   * gives a default over its range read.
   *
   * @example
   * ```ts
   * const last = await adapter.sourceRefAt?.({ namespace: 'app', prefix: 'm/t1/', offset: 479 });
   * ```
   */
  sourceRefAt?(query: SourceRefPositionQuery): Promise<string | undefined>;

  /**
   * Several prefix ranges read in one call (on a server, one statement and one round trip), each as
   * {@link listBySourceRefPrefix} reads it after passing over its first `offset` rows (the rows
   * passed over are not read). Resolves to one list per query, in the order of `queries`, each in
   * its range's order. A query's `kind` is served only by an adapter that declares
   * `sourceRefKind` (the store sends no kind filter to one that does not). Raw rows, as every read
   * of the port: the store facade verifies them. Lets a
   * caller read a page deep in a long range and another range beside it (Mastra: a page of a
   * thread and the thread's newest change row, which holds its count) in one round trip.
   * Not a promise of one snapshot: an adapter may read the ranges in turn where that costs less
   * (store-kysely on SQLite, which has no round trip to save, and on PostgreSQL above 100 ranges),
   * and a writer may then land between two ranges, as between two calls.
   * Optional: its presence is the declaration, and {@link CheckpointAdapterBase} gives none; the
   * store's `listBySourceRefRanges` reads each range by `sourceRefAt` and `listBySourceRefPrefix`
   * without it.
   *
   * @example
   * ```ts
   * const [page, [newest]] = (await adapter.listBySourceRefRanges?.([
   *   { namespace: 'app', prefix: 'm/t1/', offset: 480, limit: 41 },
   *   { namespace: 'app', prefix: 'c/t1/', descending: true, limit: 1 },
   * ])) ?? [[], []];
   * ```
   */
  listBySourceRefRanges?(queries: readonly SourceRefRangeQuery[]): Promise<CheckpointRow[][]>;

  /** A page of rows, newest first. */
  listRows(query: ListRowsQuery): Promise<CheckpointRow[]>;

  /** The newest row of a session (createdAt desc, id desc), or `undefined`. */
  latestRow(namespace: string, sessionId: string): Promise<CheckpointRow | undefined>;

  /** Raw rows by id ascending, for full scans. */
  scanRows(query: ScanRowsQuery): Promise<CheckpointRow[]>;

  /** Every session of a namespace with its size and newest row, ordered by newest row first. */
  sessions(namespace: string): Promise<SessionSummaryRow[]>;

  /** Deletes the row with this id in this namespace; `true` when a row went. */
  deleteRow(id: number, namespace: string): Promise<boolean>;

  /** Deletes these ids within the namespace; returns the ids that went, ascending. */
  deleteRows(ids: readonly number[], namespace: string): Promise<number[]>;

  /** Deletes a whole session; returns the ids that went, ascending. */
  deleteSession(namespace: string, sessionId: string): Promise<number[]>;

  /** Ids selected by a prune query, ascending. */
  findPrunable(query: PruneQuery): Promise<number[]>;

  /**
   * The metadata entries of these keys that exist, in no particular order. With `lock` inside a
   * transaction, each entry found stays locked against other writers until the transaction ends
   * (PostgreSQL: `FOR UPDATE`); adapters whose write transactions run one at a time ignore it.
   * Optional: {@link CheckpointAdapterBase} keeps entries as rows of {@link META_NAMESPACE}.
   */
  readMeta?(keys: readonly string[], options?: { lock?: boolean }): Promise<MetaEntry[]>;

  /** Every metadata entry whose key starts with `prefix`, in no particular order. Optional, as {@link readMeta}. */
  listMeta?(prefix: string): Promise<MetaEntry[]>;

  /** Sets or removes metadata entries, atomically. Optional, as {@link readMeta}. */
  writeMeta?(changes: readonly MetaChange[]): Promise<void>;

  /**
   * Inserts a row, sets `swap.key` to `swap.value` and applies `also`, as one atomic step, only
   * when `swap.key` holds `swap.expected` at that moment (`null`: absent). The adapter picks the
   * row's id (the id its next insert would be given: above every id handed out so far) and asks
   * `row(id)` for the row to insert with it, so that a sealed row's seal can cover its own id.
   * Resolves to the id, or to `undefined` when the entry held something else (nothing written).
   * The optimistic write of a sealed store: its heads move with the row or not at all.
   * Optional, as {@link readMeta}.
   *
   * @throws CheckpointConflictError when the row's `(namespace, sourceRef)` is taken, or the ids
   *   are exhausted (nothing written).
   */
  insertWithMeta?(row: (id: number) => NewCheckpointRow, swap: MetaSwap, also: readonly MetaChange[]): Promise<number | undefined>;

  /**
   * Replaces the payload text and hash of the row with this id in this namespace, every other
   * column kept; `true` when a row was changed. What a key rotation does to a sealed row (a new
   * envelope, the same row). Optional: {@link CheckpointAdapterBase} deletes the row and inserts it
   * again with its id, in one transaction.
   */
  updatePayload?(id: number, namespace: string, payloadJson: string, payloadSha256: string): Promise<boolean>;

  /**
   * Called on the adapter handed to a {@link CheckpointAdapter.transaction} callback: the id the
   * transaction's next insert without an explicit id would be given, for inserting a row with that
   * explicit id instead (a sealed row's seal covers its id, so it is computed first). Insert with it
   * before asking again. Optional: without it the store inserts and deletes a placeholder row to
   * learn the id.
   */
  reserveId?(): Promise<number>;

  /**
   * Takes the exclusive lock named `key` and holds it until the open transaction ends (commit or
   * rollback): transactions that take the same key run one at a time from that call on, and a
   * statement after it sees everything the previous holder committed. Called on the adapter
   * handed to a {@link CheckpointAdapter.transaction} callback; outside one it throws. Optional:
   * implement it (and declare {@link AdapterCapabilities.transactionLocks}) where transactions run
   * concurrently; an adapter whose writers run one at a time has no need of it.
   *
   * @example
   * ```ts
   * await adapter.transaction(async (tx) => {
   *   await tx.transactionLock?.('app/thread-1');
   *   // ... reads and writes that must not interleave with another holder of the key
   * });
   * ```
   */
  transactionLock?(key: string): Promise<void>;

  /**
   * Rows, payload bytes, oldest and newest write and highest id per (namespace, session), in no
   * particular order. Optional: {@link CheckpointAdapterBase} scans the rows.
   */
  sessionStats?(query: SessionStatsQuery): Promise<SessionStatsRow[]>;

  /**
   * Called on the adapter handed to a {@link CheckpointAdapter.transaction} callback: waits until
   * every other write transaction has ended and keeps new ones waiting until this one ends, so
   * that a statement after it sees every committed write and nothing is written beside it.
   * Readers are not held up. Needed only where transactions run concurrently (PostgreSQL:
   * `LOCK TABLE ... IN SHARE ROW EXCLUSIVE MODE`); an adapter whose write transactions run one at
   * a time (SQLite's `BEGIN IMMEDIATE`, the memory adapter) has nothing to take. Idle expiry
   * deletes a session under it.
   */
  lockWrites?(): Promise<void>;

  /** The size of the database file or relations. Optional: adapters without one report nothing. */
  storageReport?(): Promise<StorageReport>;

  /**
   * Gives free space back to the file system where that is safe with other processes attached
   * (SQLite: `VACUUM`). Resolves to the report after it, or to `undefined` when this database is
   * not compacted by the store (PostgreSQL: VACUUM is the database owner's to run). Optional.
   */
  compact?(): Promise<StorageReport | undefined>;

  /**
   * Runs `fn` in one transaction over an adapter bound to it; commits when `fn` resolves, rolls
   * everything back when it throws. Nested calls on the bound adapter join the outer transaction.
   */
  transaction<T>(fn: (tx: CheckpointAdapter) => Promise<T>): Promise<T>;

  /** Releases connections. Further calls fail. Idempotent. */
  close(): Promise<void>;
}
