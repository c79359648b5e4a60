import { CheckpointConflictError, CheckpointError } from '../errors.js';
import type { AdapterCapabilities, CheckpointAdapter, InsertOptions, InsertResult, ListRowsQuery, MetaChange, MetaEntry, MetaSwap, PruneQuery, ScanRowsQuery } from '../port/adapter.js';
import { CheckpointAdapterBase } from '../port/adapter-base.js';
import { idLimitError, MAX_CHECKPOINT_ID } from '../port/id-limit.js';
import { compareNewestFirst, selectPrunable } from '../port/ordering.js';
import { runInTransaction } from '../port/transaction-scope.js';
import type { CheckpointRow, NewCheckpointRow } from '../types.js';

/** Key of a session in the latest-row cache; NUL cannot occur in a namespace token. */
const sessionKey = (namespace: string, sessionId: string) => `${namespace}\u0000${sessionId}`;

/** Shared state of one in-memory store and the adapters bound to its transactions. */
interface MemoryState {
  rows: Map<number, CheckpointRow>;
  /** Highest id ever used: ids are never reused, as with SQLite AUTOINCREMENT. */
  sequence: number;
  /**
   * Newest row per `namespace\u0000sessionId`, filled on demand by `latestRow` and kept current by
   * inserts; any delete, tamper or rollback drops the entry (or all of them) so it is recomputed.
   */
  latest: Map<string, CheckpointRow>;
  /** Metadata entries (a sealed store's heads). */
  meta: Map<string, string>;
  /** Tail of the queue that serialises operations; see `#exclusive`. */
  queue: Promise<unknown>;
  closed: boolean;
}

/**
 * The reference adapter: rows in a `Map`, for tests and per-process use. Nothing survives the
 * process. Every operation, and every transaction as a whole, runs alone (a promise queue), so
 * concurrent callers in one process never see half a transaction, and a failed transaction can
 * restore the state it started from without undoing anyone else's work. Its capabilities are the
 * base class defaults (in-process only, gone on close, callers wait for an open transaction),
 * plus `metaEntries`: metadata entries (a sealed store's heads) live in a map of their own.
 *
 * @example
 * ```ts
 * const store = new CheckpointStore(new MemoryAdapter());
 * ```
 */
export class MemoryAdapter extends CheckpointAdapterBase {
  #state: MemoryState = { rows: new Map(), sequence: 0, latest: new Map(), meta: new Map(), queue: Promise.resolve(), closed: false };
  /** True for the adapter handed to a transaction callback: it already holds the queue. */
  #bound = false;

  /** An adapter over the same state, for the callback of a transaction that holds the queue. */
  static #boundTo(state: MemoryState): MemoryAdapter {
    const adapter = new MemoryAdapter();
    adapter.#state = state;
    adapter.#bound = true;
    return adapter;
  }

  /**
   * Test hook: overwrites stored columns of a row as-is, bypassing every check, to simulate
   * tampering. Not part of the port.
   */
  async tamperForTesting(id: number, patch: Record<string, unknown>): Promise<void> {
    await this.#exclusive(() => {
      const row = this.#state.rows.get(id);
      if (!row) throw new CheckpointError(`no row ${id} to tamper with`);
      this.#state.rows.set(id, { ...row, ...patch } as CheckpointRow);
      this.#state.latest.clear();
    });
  }

  /** What this adapter promises: the base defaults, and metadata entries of its own. */
  override get capabilities(): AdapterCapabilities {
    return { ...super.capabilities, metaEntries: true };
  }

  async insert(row: NewCheckpointRow, options: InsertOptions = {}): Promise<InsertResult> {
    return this.#exclusive(() => this.#insertNow(row, options));
  }

  /** Inserts one row and applies retention; the caller holds the queue. */
  #insertNow(row: NewCheckpointRow, options: InsertOptions): InsertResult {
    const state = this.#state;
    if (row.id !== undefined && state.rows.has(row.id)) {
      throw new CheckpointConflictError(`Checkpoint id ${row.id} already exists`, { ids: [row.id] });
    }
    if (row.sourceRef !== null) {
      for (const existing of state.rows.values()) {
        if (existing.namespace === row.namespace && existing.sourceRef === row.sourceRef) {
          throw new CheckpointConflictError(`source_ref already exists in namespace '${row.namespace}'`, { ids: [existing.id] });
        }
      }
    }
    if (row.id === undefined && state.sequence >= MAX_CHECKPOINT_ID) throw idLimitError();
    const id = row.id ?? state.sequence + 1;
    state.sequence = Math.max(state.sequence, id);
    const stored = { ...row, id };
    state.rows.set(id, stored);
    const key = sessionKey(row.namespace, row.sessionId);
    const newest = state.latest.get(key);
    if (newest && compareNewestFirst(stored, newest) < 0) state.latest.set(key, stored);
    const pruned =
      options.keepLatest === undefined
        ? []
        : selectPrunable([...state.rows.values()], { namespace: row.namespace, sessionId: row.sessionId, keepLatest: options.keepLatest });
    for (const prunedId of pruned) state.rows.delete(prunedId);
    if (pruned.length > 0) state.latest.delete(key);
    return { id, pruned };
  }

  override async readMeta(keys: readonly string[]): Promise<MetaEntry[]> {
    return this.#exclusive(() => keys.flatMap((key) => {
      const value = this.#state.meta.get(key);
      return value === undefined ? [] : [{ key, value }];
    }));
  }

  override async listMeta(prefix: string): Promise<MetaEntry[]> {
    return this.#exclusive(() => [...this.#state.meta].filter(([key]) => key.startsWith(prefix)).map(([key, value]) => ({ key, value })));
  }

  override async writeMeta(changes: readonly MetaChange[]): Promise<void> {
    return this.#exclusive(() => this.#applyMeta(changes));
  }

  override async insertWithMeta(row: (id: number) => NewCheckpointRow, swap: MetaSwap, also: readonly MetaChange[]): Promise<number | undefined> {
    return this.#exclusive(() => {
      if ((this.#state.meta.get(swap.key) ?? null) !== swap.expected) return undefined;
      if (this.#state.sequence >= MAX_CHECKPOINT_ID) throw idLimitError();
      const id = this.#state.sequence + 1;
      this.#insertNow({ ...row(id), id }, {});
      this.#applyMeta([{ key: swap.key, value: swap.value }, ...also]);
      return id;
    });
  }

  override async updatePayload(id: number, namespace: string, payloadJson: string, payloadSha256: string): Promise<boolean> {
    return this.#exclusive(() => {
      const row = this.#state.rows.get(id);
      if (!row || row.namespace !== namespace) return false;
      this.#state.rows.set(id, { ...row, payloadJson, payloadSha256 });
      this.#state.latest.clear();
      return true;
    });
  }

  /** The id the next insert would be given (the sequence moves when a row is inserted with it). */
  async reserveId(): Promise<number> {
    return this.#exclusive(() => {
      if (this.#state.sequence >= MAX_CHECKPOINT_ID) throw idLimitError();
      return this.#state.sequence + 1;
    });
  }

  #applyMeta(changes: readonly MetaChange[]): void {
    for (const { key, value, ifAbsent } of changes) {
      if (ifAbsent === true && this.#state.meta.has(key)) continue;
      if (value === null) this.#state.meta.delete(key);
      else this.#state.meta.set(key, value);
    }
  }

  async getRow(id: number, namespace: string): Promise<CheckpointRow | undefined> {
    return this.#exclusive(() => {
      const row = this.#state.rows.get(id);
      return row && row.namespace === namespace ? row : undefined;
    });
  }

  async getRowAnyNamespace(id: number): Promise<CheckpointRow | undefined> {
    return this.#exclusive(() => this.#state.rows.get(id));
  }

  override async findBySourceRef(namespace: string, sourceRef: string): Promise<CheckpointRow | undefined> {
    return this.#exclusive(() => [...this.#state.rows.values()].find((r) => r.namespace === namespace && r.sourceRef === sourceRef));
  }

  override async findBySourceRefs(namespace: string, sourceRefs: readonly string[]): Promise<CheckpointRow[]> {
    const wanted = new Set(sourceRefs);
    return this.#exclusive(() => [...this.#state.rows.values()].filter((r) => r.namespace === namespace && r.sourceRef !== null && wanted.has(r.sourceRef)));
  }

  async listRows(query: ListRowsQuery): Promise<CheckpointRow[]> {
    return this.#exclusive(() =>
      [...this.#state.rows.values()]
        .filter((r) => r.namespace === query.namespace && (query.sessionId === undefined || r.sessionId === query.sessionId))
        .sort(compareNewestFirst)
        .slice(query.offset, query.offset + query.limit),
    );
  }

  /** Served from the per-session cache; one pass over the rows when the cache has no entry. */
  override async latestRow(namespace: string, sessionId: string): Promise<CheckpointRow | undefined> {
    return this.#exclusive(() => {
      const key = sessionKey(namespace, sessionId);
      const cached = this.#state.latest.get(key);
      if (cached) return cached;
      let newest: CheckpointRow | undefined;
      for (const row of this.#state.rows.values()) {
        if (row.namespace === namespace && row.sessionId === sessionId && (!newest || compareNewestFirst(row, newest) < 0)) newest = row;
      }
      if (newest) this.#state.latest.set(key, newest);
      return newest;
    });
  }

  async scanRows(query: ScanRowsQuery): Promise<CheckpointRow[]> {
    return this.#exclusive(() =>
      [...this.#state.rows.values()]
        .filter((r) => r.id > query.afterId && (query.namespace === undefined || r.namespace === query.namespace))
        .sort((a, b) => a.id - b.id)
        .slice(0, query.limit),
    );
  }

  async deleteRow(id: number, namespace: string): Promise<boolean> {
    return this.#exclusive(() => {
      const row = this.#state.rows.get(id);
      if (!row || row.namespace !== namespace) return false;
      this.#state.rows.delete(id);
      this.#state.latest.delete(sessionKey(row.namespace, row.sessionId));
      return true;
    });
  }

  override async findPrunable(query: PruneQuery): Promise<number[]> {
    return this.#exclusive(() => selectPrunable([...this.#state.rows.values()], query));
  }

  async transaction<T>(fn: (tx: CheckpointAdapter) => Promise<T>): Promise<T> {
    return runInTransaction(this, this.#bound, (body) => this.#snapshotTransaction(body), MemoryAdapter.#boundTo, fn);
  }

  /** Runs `body` alone in the queue; when it throws, the rows, the metadata and the id sequence go back to where they were. */
  #snapshotTransaction<T>(body: (state: MemoryState) => Promise<T>): Promise<T> {
    return this.#exclusive(async () => {
      const snapshot = new Map(this.#state.rows);
      const meta = new Map(this.#state.meta);
      const sequence = this.#state.sequence;
      try {
        return await body(this.#state);
      } catch (error) {
        this.#state.rows = snapshot;
        this.#state.meta = meta;
        this.#state.latest.clear();
        this.#state.sequence = sequence;
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    this.#state.closed = true;
  }

  /** Runs `fn` when every earlier operation is done; a bound adapter already holds the queue. */
  #exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    if (this.#state.closed) return Promise.reject(new CheckpointError('the store is closed'));
    if (this.#bound) return Promise.resolve().then(fn);
    const run = this.#state.queue.then(fn);
    this.#state.queue = run.catch(() => undefined);
    return run;
  }
}
