import {
  UserError,
  type AgentInputItem,
  type Session,
  type SessionHistoryRewriteArgs,
  type SessionHistoryRewriteAwareSession,
  type SessionHistoryTransactionArgs,
  type SessionHistoryTransactionAwareSession,
} from '@openai/agents-core';
import { CheckpointValidationError, type CheckpointStore } from '@session-checkpoint/core';
import { checkTransaction, OPERATION_KIND, sameItems, type OperationPayload } from './history-transaction.js';
import { encodedSize, encodeItem, ITEM_KIND, itemsName, itemsPayload, type EncodedItem } from './item-codec.js';
import { allItemRows, endOf, itemRowsAscending, newestItemRows, newestItems, nextSeq, type ItemRow, type SessionPlace } from './item-rows.js';
import { LostRace, retryRaces } from './race.js';
import { trimToMaxItems } from './retention.js';
import { itemRef, operationRef } from './source-refs.js';

/** Bytes of a row's payload kept free of items (the `items` key, brackets, binary paths' slack). */
const ROW_OVERHEAD = 1024;

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
 * (memory, SQLite, PostgreSQL, custom adapters). Each `addItems` batch is one verified row (a
 * batch too big for one row is split), appended under the position of its first item;
 * `getItems(limit)` reads only the newest rows that hold those items;
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
      for await (const row of itemRowsAscending(this.store, place)) items.push(...row.items);
      return items;
    }
    if (typeof limit !== 'number' || Number.isNaN(limit)) throw new CheckpointValidationError('limit must be a number');
    if (limit <= 0) return [];
    const count = Math.floor(limit);
    return newestItems(await newestItemRows(this.store, place, count), count);
  }

  /**
   * Appends items as one row (several when they exceed the store's `maxPayloadBytes`), all in one
   * transaction; `[]` does nothing. Safe with concurrent writers in
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
        // The rest of the batch goes back under the same position, in the same transaction.
        const rest = row.items.slice(0, -1);
        if (rest.length > 0) await this.#insertRows(tx, place, row.seq, rest.map(encodeItem));
        return row.items[row.items.length - 1];
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
        const rows = await allItemRows(tx, place);
        await deleteAll(tx, place, rows);
        // New positions continue after the old newest, so a concurrent append collides instead of interleaving.
        const newest = rows[rows.length - 1];
        await this.#append(tx, place, payloads, newest ? endOf(newest) : 1);
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
        const rows = await allItemRows(tx, place);
        type Entry = { row: ItemRow; item: AgentInputItem; replaced: boolean };
        let entries: Entry[] = rows.flatMap((row) => row.items.map((item) => ({ row, item, replaced: false })));
        for (const { callId, replacement } of mutations) {
          let kept = false;
          entries = entries.flatMap((entry) => {
            if (entry.item.type !== 'function_call' || entry.item.callId !== callId) return [entry];
            if (kept) return [];
            kept = true;
            return [{ row: entry.row, item: replacement, replaced: true }];
          });
        }
        // Rows that lost or changed an item are rewritten under their position; the others stay.
        const changed = new Set(entries.filter((entry) => entry.replaced).map((entry) => entry.row));
        for (const row of rows) if (entries.filter((entry) => entry.row === row).length !== row.items.length) changed.add(row);
        await deleteAll(tx, place, [...changed]);
        for (const row of rows) {
          if (!changed.has(row)) continue;
          const items = entries.filter((entry) => entry.row === row).map((entry) => encodeItem(entry.item));
          if (items.length > 0) await this.#insertRows(tx, place, row.seq, items);
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
        /** True when the operation is already recorded (with this transaction; another one throws). */
        const applied = async (): Promise<boolean> => {
          const done = await tx.findBySourceRef(place.namespace, opRef);
          if (!done) return false;
          if ((done.payload as Partial<OperationPayload>).transactionSha256 === checked.sha256) return true;
          throw new UserError('Session history operation was already applied with a different transaction.');
        };
        if (await applied()) return;
        if (transaction.type === 'append_items') {
          await this.#append(tx, place, transaction.items.map(encodeItem));
        } else {
          const want = transaction.expectedSuffix.length;
          const rows = want === 0 ? [] : (await newestItemRows(tx, place, want)).reverse();
          const held = rows.flatMap((row) => row.items);
          const actual = held.slice(Math.max(0, held.length - want));
          if (actual.length < want || !sameItems(actual, transaction.expectedSuffix)) {
            // PostgreSQL reads each statement at READ COMMITTED: another process may have applied
            // this very operation between the check above and this read, and its record, committed
            // with the items that changed the suffix, is visible now. That is a retry, not a conflict.
            if (await applied()) return;
            throw new UserError('Session history suffix no longer matches the transaction precondition.');
          }
          await deleteAll(tx, place, rows);
          // The oldest row read may hold items before the suffix: they stay, followed by the
          // replacement, from that row's position, so positions stay dense and retention counts right.
          const kept = held.slice(0, held.length - want).map(encodeItem);
          await this.#append(tx, place, [...kept, ...transaction.replacement.map(encodeItem)], rows[0]?.seq);
        }
        const payload: OperationPayload = { operationId: checked.operationId, transactionSha256: checked.sha256, type: transaction.type };
        await tx.create({ namespace: place.namespace, sessionId: place.sessionId, kind: OPERATION_KIND, name: transaction.type, payload, sourceRef: opRef });
      }),
    );
  }

  async #place(): Promise<SessionPlace> {
    return { namespace: this.namespace, sessionId: await this.getSessionId() };
  }

  /** Inserts items as rows from position `from` (default: after the newest), then applies retention. */
  async #append(tx: CheckpointStore, place: SessionPlace, items: EncodedItem[], from?: number): Promise<void> {
    if (items.length === 0) return;
    const start = from ?? (await nextSeq(tx, place));
    await this.#insertRows(tx, place, start, items);
    if (this.maxItems !== undefined) {
      await trimToMaxItems(tx, place, start + items.length, this.maxItems, (seq, kept) => this.#insertRows(tx, place, seq, kept.map(encodeItem)));
    }
  }

  /**
   * Inserts items as rows from position `seq`: one row, or several when they do not fit the
   * store's `maxPayloadBytes` together (an item too big alone gets a row and the store's refusal).
   */
  async #insertRows(tx: CheckpointStore, place: SessionPlace, seq: number, items: EncodedItem[]): Promise<void> {
    const budget = this.store.limits.maxPayloadBytes - ROW_OVERHEAD;
    let position = seq;
    let batch: EncodedItem[] = [];
    let size = 0;
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      const payload = itemsPayload(batch);
      await tx.create({ namespace: place.namespace, sessionId: place.sessionId, kind: ITEM_KIND, name: itemsName(batch), payload, sourceRef: itemRef(place.sessionId, position) });
      position += batch.length;
      batch = [];
      size = 0;
    };
    for (const item of items) {
      const bytes = encodedSize(item) + 1;
      if (batch.length > 0 && size + bytes > budget) await flush();
      batch.push(item);
      size += bytes;
    }
    await flush();
  }
}

/** Deletes these rows; when another process deleted one first, the transaction lost a race. */
async function deleteAll(tx: CheckpointStore, place: SessionPlace, rows: readonly ItemRow[]): Promise<void> {
  if (rows.length === 0) return;
  const deleted = await tx.adapter.deleteRows(rows.map(({ row }) => row.id), place.namespace);
  if (deleted.length !== rows.length) throw new LostRace(`session ${place.sessionId} changed during the write; retrying`);
}
