import {
  UserError,
  type AgentInputItem,
  type Session,
  type SessionHistoryRewriteArgs,
  type SessionHistoryRewriteAwareSession,
  type SessionHistoryTransactionArgs,
  type SessionHistoryTransactionAwareSession,
} from '@openai/agents-core';
import { CheckpointValidationError, type Checkpoint as StoredRow, type CheckpointStore } from '@session-checkpoint/core';
import { checkTransaction, OPERATION_KIND, sameItems, type OperationPayload } from './history-transaction.js';
import { decodeItem, encodeItem, ITEM_KIND, itemName, type ItemPayload } from './item-codec.js';
import { itemRowsAscending, newestItemRows, newestSeq, type SessionPlace } from './item-rows.js';
import { LostRace, retryRaces } from './race.js';
import { trimToMaxItems } from './retention.js';
import { itemRef, operationRef, seqOfRef } from './source-refs.js';

/** The namespace sessions live in unless told otherwise. */
export const DEFAULT_NAMESPACE = 'openai-agents';

/** Options of {@link CheckpointSession}. */
export interface CheckpointSessionOptions {
  /** The session's id (the store's session id). Default is a new random UUID, made on first use. */
  sessionId?: string;
  /** The store namespace of the session's rows. Default is `"openai-agents"`. */
  namespace?: string;
  /**
   * Retention: keep at most this many items, deleting the oldest in the same transaction as each
   * write; a tool call and its result are deleted together. Default is unlimited.
   */
  maxItems?: number;
}

/**
 * A durable, verified `Session` for the OpenAI Agents JS SDK over any session-checkpoint store
 * (memory, SQLite, PostgreSQL, custom adapters). Each history item is one verified row, appended
 * under a per-session sequence number; `getItems(limit)` reads only the newest `limit` rows;
 * `popItem`, `addItems` and history transactions are atomic across processes.
 *
 * @example
 * ```ts
 * const store = await openSqliteStore('agents.db');
 * const session = new CheckpointSession(store, { sessionId: 'user-42' });
 * const result = await run(agent, 'Hello', { session });
 * ```
 */
export class CheckpointSession implements Session, SessionHistoryTransactionAwareSession, SessionHistoryRewriteAwareSession {
  /** The store the rows live in. */
  readonly store: CheckpointStore;
  /** The store namespace of the rows. */
  readonly namespace: string;
  /** The item cap, or `undefined` for none. */
  readonly maxItems: number | undefined;
  #sessionId: string | undefined;

  constructor(store: CheckpointStore, options: CheckpointSessionOptions = {}) {
    this.store = store;
    this.namespace = options.namespace ?? DEFAULT_NAMESPACE;
    if (options.sessionId !== undefined && (typeof options.sessionId !== 'string' || options.sessionId === '')) {
      throw new CheckpointValidationError('sessionId must be a non-empty string');
    }
    this.#sessionId = options.sessionId;
    if (options.maxItems !== undefined && !(Number.isSafeInteger(options.maxItems) && options.maxItems > 0)) {
      throw new CheckpointValidationError('maxItems must be a positive integer');
    }
    this.maxItems = options.maxItems;
  }

  /**
   * The session's id; without a `sessionId` option, a random UUID made on the first call.
   *
   * @example
   * ```ts
   * const id = await new CheckpointSession(store).getSessionId(); // '3b8e…'
   * ```
   */
  async getSessionId(): Promise<string> {
    this.#sessionId ??= globalThis.crypto.randomUUID();
    return this.#sessionId;
  }

  /**
   * The whole history, or the newest `limit` items, oldest first; `limit <= 0` gives `[]`. With a
   * limit, only those rows are read. Every row is verified.
   *
   * @throws CheckpointIntegrityError when a row read fails verification.
   * @example
   * ```ts
   * const lastTwenty = await session.getItems(20);
   * ```
   */
  async getItems(limit?: number): Promise<AgentInputItem[]> {
    const place = await this.#place();
    if (limit === undefined || limit === Infinity) {
      const items: AgentInputItem[] = [];
      for await (const row of itemRowsAscending(this.store, place)) items.push(decodeItem(row.payload));
      return items;
    }
    if (typeof limit !== 'number' || Number.isNaN(limit)) throw new CheckpointValidationError('limit must be a number');
    if (limit <= 0) return [];
    const rows = await newestItemRows(this.store, place, Math.floor(limit));
    return rows.reverse().map((row) => decodeItem(row.payload));
  }

  /**
   * Appends items, all in one transaction; `[]` does nothing. Safe with concurrent writers in
   * other processes: each takes the next free sequence numbers.
   *
   * @example
   * ```ts
   * await session.addItems([{ type: 'message', role: 'user', content: 'Hi' }]);
   * ```
   */
  async addItems(items: AgentInputItem[]): Promise<void> {
    if (!Array.isArray(items)) throw new CheckpointValidationError('items must be an array');
    if (items.length === 0) return;
    const payloads = items.map(encodeItem);
    const place = await this.#place();
    await retryRaces(() => this.store.transaction((tx) => this.#append(tx, place, payloads)));
  }

  /**
   * Removes and returns the newest item, or `undefined` when there is none. Atomic: two callers,
   * in any processes, never get the same item.
   *
   * @example
   * ```ts
   * const last = await session.popItem();
   * ```
   */
  async popItem(): Promise<AgentInputItem | undefined> {
    const place = await this.#place();
    return retryRaces(() =>
      this.store.transaction(async (tx) => {
        const [row] = await newestItemRows(tx, place, 1);
        if (!row) return undefined;
        await deleteAll(tx, place, [row]);
        return decodeItem(row.payload);
      }),
    );
  }

  /**
   * Removes every row of the session: its items and its record of applied history transactions.
   *
   * @example
   * ```ts
   * await session.clearSession();
   * ```
   */
  async clearSession(): Promise<void> {
    const place = await this.#place();
    await this.store.deleteSession(place.sessionId, { namespace: place.namespace, apply: true });
  }

  /**
   * Replaces the whole history with `items` (a compaction marker and its retained suffix) in one
   * transaction, keeping the session id.
   *
   * @example
   * ```ts
   * await session.replaceHistoryWithCompaction([{ type: 'compaction', encrypted_content: '…' }, ...suffix]);
   * ```
   */
  async replaceHistoryWithCompaction(items: AgentInputItem[]): Promise<void> {
    if (!Array.isArray(items)) throw new CheckpointValidationError('items must be an array');
    const payloads = items.map(encodeItem);
    const place = await this.#place();
    await retryRaces(() =>
      this.store.transaction(async (tx) => {
        const rows: StoredRow[] = [];
        for await (const row of itemRowsAscending(tx, place)) rows.push(row);
        await deleteAll(tx, place, rows);
        // New seqs continue after the old newest, so a concurrent append collides instead of interleaving.
        const after = rows.length === 0 ? 0 : seqOfRef(rows[rows.length - 1]?.sourceRef ?? null);
        await this.#append(tx, place, payloads, after + 1);
      }),
    );
  }

  /**
   * Rewrites stored items as the SDK's `MemorySession` does: `replace_function_call` puts the
   * replacement in place of the first function call with that `callId` and drops later ones. One
   * transaction; reads the whole history (mutations are rare).
   *
   * @example
   * ```ts
   * await session.applyHistoryMutations({ mutations: [{ type: 'replace_function_call', callId: 'c1', replacement }] });
   * ```
   */
  async applyHistoryMutations(args: SessionHistoryRewriteArgs): Promise<void> {
    const mutations = args?.mutations;
    if (!Array.isArray(mutations)) throw new CheckpointValidationError('mutations must be an array');
    if (mutations.length === 0) return;
    for (const mutation of mutations) {
      if (mutation?.type !== 'replace_function_call') throw new UserError(`Unsupported session history mutation: ${String(mutation?.type)}`);
    }
    for (const mutation of mutations) encodeItem(mutation.replacement); // refuse what cannot be stored before writing
    const place = await this.#place();
    await retryRaces(() =>
      this.store.transaction(async (tx) => {
        const rows: StoredRow[] = [];
        for await (const row of itemRowsAscending(tx, place)) rows.push(row);
        type Entry = { row: StoredRow; item: AgentInputItem; replaced: boolean };
        let entries: Entry[] = rows.map((row) => ({ row, item: decodeItem(row.payload), replaced: false }));
        for (const { callId, replacement } of mutations) {
          let kept = false;
          entries = entries.flatMap((entry) => {
            if (entry.item.type !== 'function_call' || entry.item.callId !== callId) return [entry];
            if (kept) return [];
            kept = true;
            return [{ row: entry.row, item: replacement, replaced: true }];
          });
        }
        const staying = new Set(entries.filter((entry) => !entry.replaced).map((entry) => entry.row));
        await deleteAll(tx, place, rows.filter((row) => !staying.has(row)));
        for (const entry of entries.filter((e) => e.replaced)) {
          await this.#insertItem(tx, place, seqOfRef(entry.row.sourceRef), encodeItem(entry.item));
        }
      }),
    );
  }

  /**
   * Applies an append or a suffix replacement atomically and idempotently, recording its
   * operation id in the same transaction: the same id with the same transaction again succeeds
   * and changes nothing; the same id with another transaction, or an `expectedSuffix` that does
   * not match the history's end, throws the SDK's `UserError` and changes nothing.
   *
   * @example
   * ```ts
   * await session.applyHistoryTransaction({ operationId: 'turn-3', transaction: { type: 'append_items', items } });
   * ```
   */
  async applyHistoryTransaction(args: SessionHistoryTransactionArgs): Promise<void> {
    const checked = checkTransaction(args);
    const place = await this.#place();
    const opRef = operationRef(place.sessionId, checked.operationId);
    const { transaction } = checked;
    await retryRaces(() =>
      this.store.transaction(async (tx) => {
        const done = await tx.findBySourceRef(place.namespace, opRef);
        if (done) {
          if ((done.payload as Partial<OperationPayload>).transactionSha256 === checked.sha256) return;
          throw new UserError('Session history operation was already applied with a different transaction.');
        }
        if (transaction.type === 'append_items') {
          await this.#append(tx, place, transaction.items.map(encodeItem));
        } else {
          const rows = (await newestItemRows(tx, place, transaction.expectedSuffix.length)).reverse();
          const actual = rows.map((row) => decodeItem(row.payload));
          if (rows.length < transaction.expectedSuffix.length || !sameItems(actual, transaction.expectedSuffix)) {
            throw new UserError('Session history suffix no longer matches the transaction precondition.');
          }
          await deleteAll(tx, place, rows);
          // The replacement takes the suffix's place: seqs stay dense, so retention counts right.
          const first = rows[0] ? seqOfRef(rows[0].sourceRef) : undefined;
          await this.#append(tx, place, transaction.replacement.map(encodeItem), first);
        }
        const payload: OperationPayload = { operationId: checked.operationId, transactionSha256: checked.sha256, type: transaction.type };
        await tx.create({ namespace: place.namespace, sessionId: place.sessionId, kind: OPERATION_KIND, name: transaction.type, payload, sourceRef: opRef });
      }),
    );
  }

  async #place(): Promise<SessionPlace> {
    return { namespace: this.namespace, sessionId: await this.getSessionId() };
  }

  /** Inserts items from seq `from` (default: after the newest), then applies retention. */
  async #append(tx: CheckpointStore, place: SessionPlace, payloads: ItemPayload[], from?: number): Promise<void> {
    if (payloads.length === 0) return;
    const start = from ?? (await newestSeq(tx, place)) + 1;
    for (const [offset, payload] of payloads.entries()) await this.#insertItem(tx, place, start + offset, payload);
    if (this.maxItems !== undefined) await trimToMaxItems(tx, place, start + payloads.length - 1, this.maxItems);
  }

  async #insertItem(tx: CheckpointStore, place: SessionPlace, seq: number, payload: ItemPayload): Promise<void> {
    await tx.create({
      namespace: place.namespace,
      sessionId: place.sessionId,
      kind: ITEM_KIND,
      name: itemName(payload.item as AgentInputItem),
      payload,
      sourceRef: itemRef(place.sessionId, seq),
    });
  }
}

/** Deletes these rows; when another process deleted one first, the transaction lost a race. */
async function deleteAll(tx: CheckpointStore, place: SessionPlace, rows: readonly StoredRow[]): Promise<void> {
  if (rows.length === 0) return;
  const deleted = await tx.adapter.deleteRows(rows.map((row) => row.id), place.namespace);
  if (deleted.length !== rows.length) throw new LostRace(`session ${place.sessionId} changed during the write; retrying`);
}
