import {
  getLogger,
  UserError,
  type AgentInputItem,
  type MemorySession,
  type Session,
  type SessionHistoryRewriteArgs,
  type SessionHistoryRewriteAwareSession,
  type SessionHistoryTransactionArgs,
  type SessionHistoryTransactionAwareSession,
} from '@openai/agents-core';
import { CheckpointIntegrityError, CheckpointValidationError, isCheckpointConflictError, type CheckpointStore, type PreparedCheckpoint } from '@session-checkpoint/core';
import { storeArgument } from '@session-checkpoint/core/toolkit';
import { checkTransaction, OPERATION_KIND, sameItems, type ItemsContext, type OperationPayload } from './history-transaction.js';
import { decodeEntries, encodeItem, entryText, ITEM_KIND, rowEntries, itemsName, itemsPayload, partedPayload, SINGLE_ITEM_KIND, type EncodedItem } from './format/item-codec.js';
import { PART_KIND, PART_OVERHEAD, splitText, type PartPayload } from './format/item-parts.js';
import { allItemRows, endOf, itemRowsAscending, newestItemRows, newestItems, nextSeq, prefixPages, rowIds, type ItemRow, type SessionPlace } from './format/item-rows.js';
import { deleteOrLoseRace, retryRaces } from './race.js';
import { checkSessionHead } from './sealed-head.js';
import { trimToMaxItems } from './max-items.js';
import { AGENTS_NAMESPACE, escapeText, hasLoneSurrogate, itemRef, operationRef, partRef, sessionPrefix, storedSessionId } from './format/source-refs.js';

/** Bytes of a row's payload kept free of items (the `items` key, brackets, binary paths' slack). */
const ROW_OVERHEAD = 1024;

/** The namespace sessions live in unless told otherwise. */
export const DEFAULT_NAMESPACE = AGENTS_NAMESPACE;

/** What the session calls on its store, checked at construction (see core's `storeArgument`). */
const SESSION_STORE = { name: 'CheckpointSession', methods: ['create', 'prepare', 'insertPrepared', 'findBySourceRef', 'findBySourceRefs', 'listBySourceRefPrefix', 'transaction'] };

/** The row kinds a session writes; `clearSession` deletes these and nothing else. */
const SESSION_KINDS: ReadonlySet<string> = new Set([ITEM_KIND, SINGLE_ITEM_KIND, PART_KIND, OPERATION_KIND]);

/** Rows per read while clearing a session: part rows hold up to `maxPayloadBytes` each, so a page stays small. */
const CLEAR_PAGE = 64;

/** The logger `MemorySession` takes (the SDK's `Logger`). */
type SessionLogger = NonNullable<NonNullable<ConstructorParameters<typeof MemorySession>[0]>['logger']>;

/** Longest operation id an operation record shows (the record is found by its ref, not by this field). */
const SHOWN_OPERATION_ID = 200;

/** Options of {@link CheckpointSession}. */
export interface CheckpointSessionOptions {
  /** The session's id (the store's session id). Default is a new random UUID, made on first use. */
  sessionId?: string;
  /** The store namespace of the session's rows. Default is `"openai-agents"`. */
  namespace?: string;
  /**
   * Retention: keep at most this many items, deleting the oldest in the same transaction as each
   * write; a tool call and its result are kept or deleted together, so a call still waiting for
   * its result keeps more. Default is unlimited.
   */
  maxItems?: number;
  /**
   * Items the session starts with, as `MemorySession`'s option: written on this object's first
   * call when the session holds no items yet (a session that already has a history keeps it).
   * Snapshotted here: later changes to the array or its items do not reach the store. Default is none.
   *
   * @example
   * ```ts
   * new CheckpointSession(store, { sessionId: 'u1', initialItems: [{ role: 'user', content: 'Hi' }] });
   * ```
   */
  initialItems?: AgentInputItem[];
  /**
   * Where debug lines go, as `MemorySession`'s option (items are left out of them when the logger's
   * `dontLogModelData` or `dontLogToolData` is set). Default is the SDK's `openai-agents:core` logger.
   */
  logger?: SessionLogger;
}

/**
 * A durable, verified `Session` for the OpenAI Agents JS SDK over any session-checkpoint store
 * (memory, SQLite, PostgreSQL, custom adapters). Each `addItems` batch is one verified row (a
 * batch too big for one row is split, and an item too big for one row is cut over part rows),
 * appended under the position of its first item; `getItems(limit)` reads only the newest rows
 * that hold those items; `popItem`, `addItems` and history transactions are atomic across processes.
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
  /** Where debug lines go. */
  readonly logger: SessionLogger;
  #sessionId: string | undefined;
  #initialItems: EncodedItem[];
  #seeded: Promise<void> | undefined;

  /**
   * @throws CheckpointValidationError when `store` is not an opened store (a path, a Promise still
   * opening, an adapter) or an option is malformed.
   */
  constructor(store: CheckpointStore, options: CheckpointSessionOptions = {}) {
    this.store = storeArgument(store, SESSION_STORE);
    this.namespace = options.namespace ?? DEFAULT_NAMESPACE;
    if (options.sessionId !== undefined && (typeof options.sessionId !== 'string' || options.sessionId === '')) {
      throw new CheckpointValidationError('sessionId must be a non-empty string');
    }
    this.#sessionId = options.sessionId;
    if (options.maxItems !== undefined && !(Number.isSafeInteger(options.maxItems) && options.maxItems > 0)) {
      throw new CheckpointValidationError('maxItems must be a positive integer');
    }
    this.maxItems = options.maxItems;
    this.logger = options.logger ?? getLogger('openai-agents:core');
    const initial = options.initialItems ?? [];
    if (!Array.isArray(initial)) throw new CheckpointValidationError('initialItems must be an array');
    const context = this.#context(options.sessionId ?? '(new session)');
    this.#initialItems = initial.map((item, index) => encodeItem(item, { ...context, what: `initialItems[${index}]` }));
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
   * The whole history, or the newest `limit` items, oldest first; `limit <= 0` gives `[]`, a
   * fractional limit counts as the next integer and `NaN` as no limit, as `MemorySession` does.
   * With a limit, only those rows are read. Every row is verified, every part joined and checked.
   *
   * @throws CheckpointIntegrityError when a row read fails verification.
   * @example
   * ```ts
   * const lastTwenty = await session.getItems(20);
   * ```
   */
  async getItems(limit?: number): Promise<AgentInputItem[]> {
    const place = await this.#ready();
    // Sealed: the head is checked beside the read (a rollback fails closed).
    const head = checkSessionHead(this.store, place);
    head.catch(() => undefined); // awaited below, after the read, whose own error comes first
    let items: AgentInputItem[];
    if (limit === undefined || limit === Infinity || Number.isNaN(limit)) {
      items = [];
      for await (const row of itemRowsAscending(this.store, place)) for (const item of row.items) items.push(item);
    } else {
      if (typeof limit !== 'number') throw new CheckpointValidationError('limit must be a number');
      if (limit <= 0) return [];
      const count = Math.ceil(limit);
      items = newestItems(await newestItemRows(this.store, place, count), count);
    }
    await head;
    this.#debug('Getting items from', place, items);
    return items;
  }

  /**
   * Appends items as one row (several when they exceed the store's `maxPayloadBytes`; an item
   * larger than a row is cut over part rows), all in one transaction; `[]` does nothing. Safe with
   * concurrent writers in other processes: each takes the next free positions.
   *
   * @throws CheckpointValidationError naming the session, the item and the field when an item holds
   * what JSON cannot keep (a function, a class instance, a cycle, NaN, nesting past the store's maxDepth).
   * @example
   * ```ts
   * await session.addItems([{ type: 'message', role: 'user', content: 'Hi' }]);
   * ```
   */
  async addItems(items: AgentInputItem[]): Promise<void> {
    if (!Array.isArray(items)) throw new CheckpointValidationError('items must be an array');
    if (items.length === 0) return;
    const place = await this.#ready();
    const encoded = this.#encode(place, items, 'of the batch');
    this.#debug('Adding items to', place, items);
    await retryRaces(() => this.store.transaction((tx) => this.#append(tx, place, encoded)));
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
    const place = await this.#ready();
    const item = await retryRaces(() =>
      this.store.transaction(async (tx) => {
        const [row] = await newestItemRows(tx, place, 1);
        if (!row) return undefined;
        await deleteAll(tx, place, [row]);
        // The rest of the batch goes back under the same position, in the same transaction.
        const rest = row.items.slice(0, -1);
        if (rest.length > 0) await this.#insertRows(tx, place, row.seq, this.#encode(place, rest, 'kept by popItem'));
        return row.items[row.items.length - 1];
      }),
    );
    if (item !== undefined) this.#debug('Popping item from', place, [item]);
    return item;
  }

  /**
   * Removes the session's own rows (its items, their parts and its record of applied history
   * transactions) in one transaction. Other rows that carry the same session id in the namespace
   * (a CLI checkpoint, a LangGraph thread of that id) stay.
   *
   * @example
   * ```ts
   * await session.clearSession();
   * ```
   */
  async clearSession(): Promise<void> {
    const place = await this.#place();
    // A cleared session starts empty, as MemorySession's does: initialItems are not written after this.
    this.#seeded ??= Promise.resolve();
    this.logger.debug(`Clearing checkpoint session (${place.sessionId})`);
    await retryRaces(() =>
      this.store.transaction(async (tx) => {
        for await (const page of prefixPages(tx, place.namespace, sessionPrefix(place.sessionId), CLEAR_PAGE)) {
          await deleteOrLoseRace(tx, place, page.filter((row) => SESSION_KINDS.has(row.kind)).map((row) => row.id), 'clear');
        }
      }),
    );
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
    const place = await this.#ready();
    const encoded = this.#encode(place, items, 'of the compacted history');
    await retryRaces(() =>
      this.store.transaction(async (tx) => {
        const rows = await allItemRows(tx, place);
        await deleteAll(tx, place, rows);
        // New positions continue after the old newest, so a concurrent append collides instead of interleaving.
        const newest = rows[rows.length - 1];
        await this.#append(tx, place, encoded, newest ? endOf(newest) : 1);
      }),
    );
  }

  /**
   * Rewrites stored items as the SDK's `MemorySession` does: `replace_function_call` puts the
   * replacement in place of the first function call with that `callId` and drops later ones; other
   * mutation types are ignored, as there. One transaction; reads the whole history (mutations are
   * rare) and rewrites the rows from the first changed one on, so positions stay dense.
   *
   * @example
   * ```ts
   * await session.applyHistoryMutations({ mutations: [{ type: 'replace_function_call', callId: 'c1', replacement }] });
   * ```
   */
  async applyHistoryMutations(args: SessionHistoryRewriteArgs): Promise<void> {
    const mutations = args?.mutations;
    if (!Array.isArray(mutations)) throw new CheckpointValidationError('mutations must be an array');
    const replacing = mutations.filter((mutation) => mutation?.type === 'replace_function_call');
    if (replacing.length === 0) return;
    const place = await this.#ready();
    // Snapshots, and a refusal of what cannot be stored, before anything is written.
    const replacements = replacing.map((mutation, index) => this.#decodeEncoded(encodeItem(mutation.replacement, { ...this.#context(place.sessionId), what: `mutation ${index}'s replacement` })));
    await retryRaces(() =>
      this.store.transaction(async (tx) => {
        const rows = await allItemRows(tx, place);
        const before = rows.flatMap((row) => row.items);
        let after: AgentInputItem[] = before;
        replacing.forEach(({ callId }, index) => {
          let kept = false;
          after = after.flatMap((item) => {
            if (item.type !== 'function_call' || item.callId !== callId) return [item];
            if (kept) return [];
            kept = true;
            return [replacements[index] as AgentInputItem];
          });
        });
        let first = 0;
        while (first < before.length && first < after.length && before[first] === after[first]) first++;
        if (first === before.length && first === after.length) return;
        // The rows from the one holding the first change on are rewritten from that row's position.
        const from = rows.findIndex((row) => endOf(row) > (rows[0]?.seq ?? 1) + first);
        const rewritten = rows.slice(from < 0 ? rows.length - 1 : from);
        const start = rewritten[0] as ItemRow;
        await deleteAll(tx, place, rewritten);
        const kept = after.slice(start.seq - (rows[0] as ItemRow).seq);
        if (kept.length > 0) await this.#insertRows(tx, place, start.seq, this.#encode(place, kept, 'of the rewritten history'));
      }),
    );
  }

  /**
   * Applies an append or a suffix replacement atomically and idempotently, recording its
   * operation id in the same transaction: the same id with the same transaction again succeeds
   * and changes nothing; the same id with another transaction, or an `expectedSuffix` that does
   * not match the history's end, throws the SDK's `UserError` and changes nothing. Items are
   * checked as `MemorySession` checks them (each a valid model item).
   *
   * @example
   * ```ts
   * await session.applyHistoryTransaction({ operationId: 'turn-3', transaction: { type: 'append_items', items } });
   * ```
   */
  async applyHistoryTransaction(args: SessionHistoryTransactionArgs): Promise<void> {
    const place = await this.#ready();
    const context = this.#context(place.sessionId);
    const checked = checkTransaction(args, context);
    const opRef = operationRef(place.sessionId, checked.operationId);
    const { transaction } = checked;
    const appended = transaction.type === 'append_items' ? this.#encode(place, transaction.items, 'of the transaction') : this.#encode(place, transaction.replacement, 'of the replacement');
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
          await this.#append(tx, place, appended);
        } else {
          const want = transaction.expectedSuffix.length;
          const rows = want === 0 ? [] : (await newestItemRows(tx, place, want)).reverse();
          const held = rows.flatMap((row) => row.items);
          const actual = held.slice(Math.max(0, held.length - want));
          if (actual.length < want || !sameItems(actual, transaction.expectedSuffix, context)) {
            // PostgreSQL reads each statement at READ COMMITTED: another process may have applied
            // this very operation between the check above and this read, and its record, committed
            // with the items that changed the suffix, is visible now. That is a retry, not a conflict.
            if (await applied()) return;
            throw new UserError('Session history suffix no longer matches the transaction precondition.');
          }
          await deleteAll(tx, place, rows);
          // The oldest row read may hold items before the suffix: they stay, followed by the
          // replacement, from that row's position, so positions stay dense and retention counts right.
          const kept = this.#encode(place, held.slice(0, held.length - want), 'kept before the suffix');
          await this.#append(tx, place, [...kept, ...appended], rows[0]?.seq);
        }
        const shown = escapeText(checked.operationId);
        const payload: OperationPayload = {
          operationId: hasLoneSurrogate(checked.operationId) || shown.length > SHOWN_OPERATION_ID ? `${shown.slice(0, SHOWN_OPERATION_ID)}…` : checked.operationId,
          transactionSha256: checked.sha256,
          type: transaction.type,
        };
        await tx.create({ namespace: place.namespace, sessionId: storedSessionId(place.sessionId), kind: OPERATION_KIND, name: transaction.type, payload, sourceRef: opRef });
      }),
    );
  }

  async #place(): Promise<SessionPlace> {
    return { namespace: this.namespace, sessionId: await this.getSessionId() };
  }

  /** The place, after `initialItems` were written on this object's first call (when the session had no items). */
  async #ready(): Promise<SessionPlace> {
    const place = await this.#place();
    if (this.#seeded === undefined) {
      const initial = this.#initialItems;
      this.#seeded =
        initial.length === 0
          ? Promise.resolve()
          : retryRaces(() =>
              this.store.transaction(async (tx) => {
                if ((await newestItemRows(tx, place, 1)).length === 0) await this.#append(tx, place, initial);
              }),
            );
      this.#seeded.catch(() => (this.#seeded = undefined));
    }
    await this.#seeded;
    return place;
  }

  #context(sessionId: string): ItemsContext {
    const storeMaxDepth = this.store.limits.maxDepth;
    return { sessionId, maxDepth: storeMaxDepth - 2, storeMaxDepth };
  }

  #encode(place: SessionPlace, items: readonly AgentInputItem[], of: string): EncodedItem[] {
    const context = this.#context(place.sessionId);
    return items.map((item, index) => encodeItem(item, { ...context, what: `item ${index} ${of}` }));
  }

  /** The item an encoding stands for, as a read would give it (a snapshot). */
  #decodeEncoded(encoded: EncodedItem): AgentInputItem {
    const row = { sessionId: '', id: 0, sourceRef: null };
    return decodeEntries(rowEntries({ ...row, kind: ITEM_KIND, payloadJson: JSON.stringify(itemsPayload([encoded])) }), row)[0] as AgentInputItem;
  }

  #debug(action: string, place: SessionPlace, items: readonly AgentInputItem[]): void {
    const log = this.logger;
    if ((log.debug as { enabled?: boolean }).enabled === false) return;
    if (log.dontLogModelData || log.dontLogToolData) log.debug(`${action} checkpoint session (${place.sessionId}): ${items.length} items`);
    else log.debug(`${action} checkpoint session (${place.sessionId}): ${JSON.stringify(items)}`);
  }

  /** Inserts items from position `from` (default: after the newest), then applies retention. */
  async #append(tx: CheckpointStore, place: SessionPlace, items: EncodedItem[], from?: number): Promise<void> {
    if (items.length === 0) return;
    const start = from ?? (await nextSeq(tx, place));
    await this.#insertRows(tx, place, start, items);
    if (this.maxItems !== undefined) {
      await trimToMaxItems(tx, place, start + items.length, this.maxItems, (seq, kept) => this.#insertRows(tx, place, seq, this.#encode(place, kept, 'kept by maxItems')));
    }
  }

  /**
   * Inserts items as rows from position `seq`: one row, or several when they do not fit the
   * store's `maxPayloadBytes` together; an item too large for a row alone gets its own row and
   * part rows.
   */
  async #insertRows(tx: CheckpointStore, place: SessionPlace, seq: number, items: EncodedItem[]): Promise<void> {
    // Compared by difference: past 2^53 a sum rounds and the check would pass.
    if (!Number.isSafeInteger(seq) || items.length - 1 > Number.MAX_SAFE_INTEGER - seq) {
      throw new CheckpointIntegrityError(
        `session ${JSON.stringify(place.sessionId)}: the history's positions would pass 2^53-1 (next position ${seq}); no session reaches that by writing, so the store was changed outside this package`,
      );
    }
    const budget = this.store.limits.maxPayloadBytes - ROW_OVERHEAD;
    const sessionId = storedSessionId(place.sessionId);
    let position = seq;
    let batch: EncodedItem[] = [];
    let size = 0;
    const insert = async (rows: EncodedItem[]): Promise<void> => {
      const prepared = tryPrepare(tx, { namespace: place.namespace, sessionId, kind: ITEM_KIND, name: itemsName(rows), payload: itemsPayload(rows), sourceRef: itemRef(place.sessionId, position) });
      if (prepared !== undefined) {
        await tx.insertPrepared(prepared);
        position += rows.length;
      } else if (rows.length > 1) {
        // Sized by JSON.stringify; the canonical form can be a little longer: halve and try again.
        await insert(rows.slice(0, rows.length >> 1));
        await insert(rows.slice(rows.length >> 1));
      } else {
        await this.#insertParted(tx, place, position, rows[0] as EncodedItem);
        position += 1;
      }
    };
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      const rows = batch;
      batch = [];
      size = 0;
      await insert(rows);
    };
    for (const item of items) {
      const bytes = item.bytes + 1;
      if (bytes > budget) {
        await flush();
        await this.#insertParted(tx, place, position, item);
        position += 1;
        continue;
      }
      if (batch.length > 0 && size + bytes > budget) await flush();
      batch.push(item);
      size += bytes;
    }
    await flush();
  }

  /** One item larger than a row: its JSON text over part rows, and its own row listing their hashes. */
  async #insertParted(tx: CheckpointStore, place: SessionPlace, seq: number, item: EncodedItem): Promise<void> {
    const limits = this.store.limits;
    const sessionId = storedSessionId(place.sessionId);
    const what = `session ${JSON.stringify(place.sessionId)}, the item at position ${seq}`;
    const parts = splitText(entryText(item), limits.maxPayloadBytes - PART_OVERHEAD).map((text, k) => {
      const payload: PartPayload = { part: k, text };
      const part = tryPrepare(tx, { namespace: place.namespace, sessionId, kind: PART_KIND, name: `part ${k}`, payload, sourceRef: partRef(place.sessionId, seq, k) });
      if (part === undefined) {
        throw new CheckpointValidationError(`${what}: part ${k} of its text does not fit a row of the store's limits.maxPayloadBytes (${limits.maxPayloadBytes}); raise limits.maxPayloadBytes when opening the store`);
      }
      return part;
    });
    const owner = tryPrepare(tx, {
      namespace: place.namespace,
      sessionId,
      kind: ITEM_KIND,
      name: itemsName([item]),
      payload: partedPayload(item, parts.map((part) => part.payloadSha256)),
      sourceRef: itemRef(place.sessionId, seq),
    });
    if (owner === undefined) {
      throw new CheckpointValidationError(
        `${what}: the list of its ${parts.length} parts and ${item.binary.length} binary fields does not fit a row of the store's limits.maxPayloadBytes (${limits.maxPayloadBytes}); raise limits.maxPayloadBytes when opening the store`,
      );
    }
    // The item's row first: a writer racing for this position collides there, before any part.
    await tx.insertPrepared(owner);
    for (const part of parts) {
      try {
        await tx.insertPrepared(part);
      } catch (error) {
        if (!isCheckpointConflictError(error)) throw error;
        // This position's item row was free, so a part row there belongs to no item.
        throw new CheckpointIntegrityError(`${what}: a part row is already stored under ${String(part.sourceRef)} with no item row; the store was changed outside this package`, { cause: error });
      }
    }
  }
}

/** The prepared row, or `undefined` when it is over the store's payload limit (any other error is thrown). */
function tryPrepare(tx: CheckpointStore, input: Parameters<CheckpointStore['prepare']>[0]): PreparedCheckpoint | undefined {
  try {
    return tx.prepare(input);
  } catch (error) {
    if (error instanceof CheckpointValidationError && /carrier limit/.test(error.message)) return undefined;
    throw error;
  }
}

/** Deletes these rows and their parts; when another process deleted one first, the transaction lost a race. */
function deleteAll(tx: CheckpointStore, place: SessionPlace, rows: readonly ItemRow[]): Promise<void> {
  return deleteOrLoseRace(tx, place, rowIds(rows), 'write');
}
