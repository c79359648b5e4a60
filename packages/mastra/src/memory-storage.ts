import { randomUUID } from 'node:crypto';
import { CheckpointValidationError, type Checkpoint, type CheckpointStore, type PreparedCheckpoint } from '@session-checkpoint/core';
import { rawRange } from '@session-checkpoint/core/toolkit';
import { MessageList } from '@mastra/core/agent/message-list';
import type { MastraDBMessage, StorageThreadType } from '@mastra/core/memory';
import {
  MemoryStorage,
  calculatePagination,
  filterByDateRange,
  jsonValueEquals,
  normalizePerPage,
  type StorageCloneThreadInput,
  type StorageCopyThreadOutput,
  type StorageListMessagesByResourceIdInput,
  type StorageListMessagesInput,
  type StorageListMessagesOutput,
  type StorageListThreadsInput,
  type StorageListThreadsOutput,
  type StorageResourceType,
  type CreateObservationalMemoryInput,
  type CreateReflectionGenerationInput,
  type ObservationalMemoryHistoryOptions,
  type ObservationalMemoryRecord,
  type SwapBufferedReflectionToActiveInput,
  type SwapBufferedToActiveInput,
  type SwapBufferedToActiveResult,
  type UpdateActiveObservationsInput,
  type UpdateBufferedObservationsInput,
  type UpdateBufferedReflectionInput,
  type UpdateObservationalMemoryConfigInput,
} from '@mastra/core/storage';
import { Remembered, type RememberedChange } from './remembered.js';
import { ObservationalMemoryRows, OM_PREFIXES } from './observational-memory.js';
import { KINDS, MASTRA_NAMESPACE } from './rows/namespace.js';
import { changePrefix, changeRef, messageIdRef, messagePrefix, messageRef, resourceRef, seqOf, sessionOf, threadRef } from './rows/refs.js';
import { valuesOf } from './rows/values.js';
import { ParsedValues } from './rows/parsed-values.js';
import { messageOut, readMessage } from './read-message.js';
import type { ChangePayload, StoredMessage, StoredThread } from './rows/types.js';
import { deleteExactly, domainStore, inTransaction, lockThreads, LostRace, refAt, rowsByPrefix, threadLockKey } from './store-rows.js';
import { deleteValueRows, jsonOf, putValue, recordJson, valueRows, writeRows } from './value-writer.js';

/** Options of {@link CheckpointMemoryStorage}. */
export interface CheckpointMemoryStorageOptions {
  /** Store namespace of the rows. Default is `"mastra"` (shared with the workflows domain). */
  namespace?: string;
  /**
   * How many threads a message save may remember (their newest change row's number, count and
   * SHA-256) to check that row in the statement that reads the saved ids, instead of reading and
   * parsing the thread's newest change; `0` turns that path off. Default is 4096.
   */
  rememberedThreads?: number;
}

type MessageUpdate = Partial<Omit<MastraDBMessage, 'createdAt'>> & { id: string; createdAt?: Date; content?: Record<string, unknown> };

/**
 * A change row whose messages are larger than this keeps them in part rows: the newest change row
 * is read (and verified) for its count and time by every page with a total and every save, and
 * need not carry a large batch of messages for that (one agent turn stays inline).
 */
const CHANGE_INLINE_BYTES = 16 * 1024;

const SAFE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Mastra's metadata filter on messages: shallow scalar keys of `content.metadata`, equal by value and type. */
function checkMetadataFilter(filter: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (filter === undefined || filter === null) return undefined;
  if (typeof filter !== 'object' || Array.isArray(filter)) throw new Error('filter.metadata must be an object');
  for (const [key, value] of Object.entries(filter)) {
    if (!SAFE_KEY.test(key) || key.length > 128 || key === '__proto__' || key === 'prototype' || key === 'constructor') throw new Error(`Invalid metadata filter key: "${key}"`);
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) throw new Error(`Metadata filter value for "${key}" must be a string, number, boolean or null`);
  }
  return Object.keys(filter).length === 0 ? undefined : filter;
}

function metadataMatches(message: StoredMessage, filter: Record<string, unknown> | undefined): boolean {
  if (filter === undefined) return true;
  const metadata = (message.content as { metadata?: Record<string, unknown> } | undefined)?.metadata;
  if (metadata === null || typeof metadata !== 'object') return false;
  return Object.entries(filter).every(([key, value]) => Object.hasOwn(metadata, key) && metadata[key] === value);
}

/** A stored thread as Mastra's types have it (dates as `Date`). */
function threadOut(t: StoredThread): StorageThreadType {
  return { ...t, createdAt: new Date(t.createdAt), updatedAt: new Date(t.updatedAt) } as StorageThreadType;
}

/** The message count a thread's newest change row records after it; 0 for a thread without one. */
function countOf(row: Checkpoint | undefined): number {
  return row === undefined ? 0 : (row.payload as unknown as ChangePayload).count;
}

function timeOf(value: unknown): number {
  const ms = value instanceof Date ? value.getTime() : new Date(value as string).getTime();
  return Number.isFinite(ms) ? ms : 0;
}

/**
 * The messages of one call, one version per id: the last version of an id wins; a save keeps the
 * first createdAt of the call, as libsql's second upsert keeps the row's.
 */
function batchOf(messages: readonly StoredMessage[], op: 'save' | 'update'): Map<string, StoredMessage> {
  const batch = new Map<string, StoredMessage>();
  for (const m of messages) {
    const first = batch.get(m.id);
    batch.set(m.id, op === 'save' && first ? { ...m, createdAt: first.createdAt } : m);
  }
  return batch;
}

function sortMessages(messages: MastraDBMessage[], direction: 'ASC' | 'DESC'): MastraDBMessage[] {
  return messages.sort((a, b) => (direction === 'ASC' ? 1 : -1) * (timeOf(a.createdAt) - timeOf(b.createdAt)));
}

/**
 * Mastra's `memory` storage domain (threads, messages with pagination and filters, resources and
 * working memory, thread copies) over a session-checkpoint store: every row is verified on read,
 * and every change of a thread's memory is also kept as a change row, so the memory an agent had
 * at each step can be rebuilt (`@session-checkpoint/mastra/rows`).
 *
 * Observational memory is implemented too (observational-memory.ts): each record's every update
 * is a version row, the newest its current state.
 *
 * @example
 * ```ts
 * const storage = new MastraCompositeStore({ id: 'app', domains: { memory: new CheckpointMemoryStorage(store) } });
 * ```
 */
export class CheckpointMemoryStorage extends MemoryStorage {
  override readonly supportsPartialThreadUpdate = true;
  /** The store the rows are in. */
  readonly store: CheckpointStore;
  /** The store namespace of the rows. */
  readonly namespace: string;

  /** Threads whose newest change row this object wrote or read last; undefined when turned off. */
  readonly #changes: Remembered<RememberedChange> | undefined;

  /** The values of message rows this object has read more than once, by payload SHA-256 (a page's parse; rows/parsed-values.ts). */
  readonly #parsed = new ParsedValues();

  constructor(store: CheckpointStore, options: CheckpointMemoryStorageOptions = {}) {
    super();
    this.store = domainStore(store, 'CheckpointMemoryStorage');
    this.namespace = options.namespace ?? MASTRA_NAMESPACE;
    this.store.prepare({ namespace: this.namespace, sessionId: 'x', payload: {} });
    const remembered = options.rememberedThreads;
    if (remembered !== undefined && (!Number.isSafeInteger(remembered) || remembered < 0)) throw new CheckpointValidationError('rememberedThreads must be a non-negative integer');
    this.#changes = remembered === 0 ? undefined : new Remembered<RememberedChange>(remembered);
  }

  // ---- reads shared by the methods ------------------------------------------------------------

  async #threadRow(reader: CheckpointStore, threadId: string): Promise<{ row: Checkpoint; thread: StoredThread } | undefined> {
    const row = await reader.findBySourceRef(this.namespace, threadRef(threadId));
    if (row === undefined) return undefined;
    const [thread] = (await valuesOf(reader, this.namespace, [row])) as [StoredThread];
    return { row, thread };
  }

  /** The current messages of a thread, in stored order, with their rows. */
  async #threadMessages(reader: CheckpointStore, threadId: string): Promise<{ row: Checkpoint; message: StoredMessage }[]> {
    const rows = await rowsByPrefix(reader, this.namespace, messagePrefix(threadId));
    const values = (await valuesOf(reader, this.namespace, rows)) as StoredMessage[];
    return rows.map((row, i) => ({ row, message: values[i] as StoredMessage }));
  }

  /** The newest change of a thread: its seq and the thread's message count after it. */
  async #lastChange(reader: CheckpointStore, threadId: string): Promise<{ seq: number; count: number; at: string | undefined }> {
    const [row] = await reader.listBySourceRefPrefix({ namespace: this.namespace, prefix: changePrefix(threadId), descending: true, limit: 1 });
    if (row === undefined) return { seq: 0, count: 0, at: undefined };
    const p = row.payload as unknown as ChangePayload;
    return { seq: seqOf(row.sourceRef), count: countOf(row), at: typeof p.at === 'string' ? p.at : undefined };
  }

  /**
   * A thread as Mastra sees it: its record, with `updatedAt` the later of the record's and its
   * newest change's. Saving, updating or deleting messages touches a thread by its change row
   * alone, so the thread record is not rewritten on every message.
   */
  async #threadOf(reader: CheckpointStore, threadId: string): Promise<{ row: Checkpoint; thread: StoredThread } | undefined> {
    const found = await this.#threadRow(reader, threadId);
    if (!found) return undefined;
    const { at } = await this.#lastChange(reader, threadId);
    if (at !== undefined && new Date(at).getTime() > new Date(found.thread.updatedAt).getTime()) return { row: found.row, thread: { ...found.thread, updatedAt: at } };
    return found;
  }

  /** Writes change row `seq` of a thread; `change.at` defaults to now (a message change touches the thread). */
  async #writeChange(tx: CheckpointStore, threadId: string, seq: number, change: Omit<ChangePayload, 'threadId' | 'seq' | 'at'> & { at?: string }): Promise<void> {
    await writeRows(tx, this.#changeRows(tx, threadId, seq, change));
  }

  /** The rows of change row `seq` of a thread (with its parts when its value is long), prepared and not written. */
  #changeRows(tx: CheckpointStore, threadId: string, seq: number, change: Omit<ChangePayload, 'threadId' | 'seq' | 'at'> & { at?: string }): PreparedCheckpoint[] {
    return valueRows(tx, {
      namespace: this.namespace,
      sessionId: sessionOf(threadId),
      kind: KINDS.change,
      name: change.op,
      ref: changeRef(threadId, seq),
      fields: { threadId, seq, op: change.op, count: change.count, at: change.at ?? new Date().toISOString(), ...(change.ids === undefined ? {} : { ids: change.ids }) },
      value: change.value ?? null,
    }, { inlineBytes: CHANGE_INLINE_BYTES });
  }

  /**
   * Deletes a thread's previous record and gives the rows of the new one, prepared, for the caller
   * to write with the thread's change row in one insert (thread rows first, as they always went).
   */
  async #threadRows(tx: CheckpointStore, thread: StoredThread, previous: Checkpoint | undefined): Promise<PreparedCheckpoint[]> {
    if (previous) await deleteValueRows(tx, this.namespace, [previous]);
    return valueRows(tx, { namespace: this.namespace, sessionId: sessionOf(thread.id), kind: KINDS.thread, name: 'thread', ref: threadRef(thread.id), fields: { threadId: thread.id }, value: thread });
  }

  // ---- threads --------------------------------------------------------------------------------

  override async dangerouslyClearAll(): Promise<void> {
    this.#changes?.clear();
    this.#parsed.clear();
    await inTransaction(this.store, async (tx) => {
      for (const prefix of ['t/', 'm/', 'i/', 'c/', 'r/', 'p/t/', 'p/m/', 'p/c/', 'p/r/', ...OM_PREFIXES]) {
        for (;;) {
          // Raw rows: a row that fails verification is cleared too (this is the tests' reset).
          const rows = await rawRange(tx, { namespace: this.namespace, prefix, limit: 500 });
          if (rows.length === 0) break;
          await tx.adapter.deleteRows(rows.map((r) => r.id), this.namespace);
        }
      }
    });
  }

  override async getThreadById({ threadId, resourceId }: { threadId: string; resourceId?: string }): Promise<StorageThreadType | null> {
    const found = await this.#threadOf(this.store, threadId);
    if (!found || (resourceId !== undefined && found.thread.resourceId !== resourceId)) return null;
    return threadOut(found.thread);
  }

  override async saveThread({ thread }: { thread: StorageThreadType }): Promise<StorageThreadType> {
    const stored = jsonOf(thread, 'thread') as StoredThread;
    // Writes a change row: the remembered one is no longer the newest.
    this.#changes?.delete(thread.id);
    await inTransaction(this.store, async (tx) => {
      const previous = await tx.findBySourceRef(this.namespace, threadRef(thread.id));
      const rows = await this.#threadRows(tx, stored, previous);
      const last = await this.#lastChange(tx, thread.id);
      await writeRows(tx, [...rows, ...this.#changeRows(tx, thread.id, last.seq + 1, { op: 'thread', count: last.count, value: stored, at: stored.updatedAt })]);
    });
    return thread;
  }

  override async updateThread({ id, title, metadata }: { id: string; title?: string; metadata?: Record<string, unknown> }): Promise<StorageThreadType> {
    this.#changes?.delete(id);
    return inTransaction(this.store, async (tx) => {
      const found = await this.#threadOf(tx, id);
      if (!found) throw new Error(`Thread ${id} not found`);
      const next: StoredThread = {
        ...found.thread,
        ...(title === undefined ? {} : { title }),
        metadata: { ...(found.thread.metadata ?? {}), ...((jsonOf(metadata ?? {}, 'metadata') as Record<string, unknown>) ?? {}) },
        updatedAt: new Date().toISOString(),
      };
      const rows = await this.#threadRows(tx, next, found.row);
      const last = await this.#lastChange(tx, id);
      await writeRows(tx, [...rows, ...this.#changeRows(tx, id, last.seq + 1, { op: 'thread', count: last.count, value: next, at: next.updatedAt })]);
      return threadOut(next);
    });
  }

  override async deleteThread({ threadId }: { threadId: string }): Promise<void> {
    this.#changes?.delete(threadId);
    await inTransaction(this.store, async (tx) => {
      // Before any read: a save to the thread commits first (and is deleted here) or waits.
      const release = await lockThreads(tx, this.namespace, [threadId]);
      const messages = await this.#threadMessages(tx, threadId);
      const ids = messages.length === 0 ? [] : await tx.findBySourceRefs(this.namespace, messages.map((m) => messageIdRef(m.message.id)));
      const thread = await tx.findBySourceRef(this.namespace, threadRef(threadId));
      const changes = await rowsByPrefix(tx, this.namespace, changePrefix(threadId));
      await deleteValueRows(tx, this.namespace, [...(thread ? [thread] : []), ...messages.map((m) => m.row), ...ids, ...changes]);
      await release();
    });
  }

  override async listThreads(args: StorageListThreadsInput): Promise<StorageListThreadsOutput> {
    const { page = 0, perPage: perPageInput, orderBy, filter } = args;
    const { field, direction } = this.parseOrderBy(orderBy);
    this.validatePaginationInput(page, perPageInput ?? 100);
    const perPage = normalizePerPage(perPageInput, 100);
    this.validateMetadataKeys(filter?.metadata);
    const rows = await rowsByPrefix(this.store, this.namespace, 't/', { kind: KINDS.thread });
    const stored = (await valuesOf(this.store, this.namespace, rows)) as StoredThread[];
    let threads: StorageThreadType[] = [];
    for (const t of stored) {
      const { at } = await this.#lastChange(this.store, t.id);
      threads.push(threadOut(at !== undefined && new Date(at).getTime() > new Date(t.updatedAt).getTime() ? { ...t, updatedAt: at } : t));
    }
    if (filter?.resourceId) threads = threads.filter((t) => t.resourceId === filter.resourceId);
    const wanted = filter?.metadata;
    if (wanted && Object.keys(wanted).length > 0) threads = threads.filter((t) => t.metadata && Object.entries(wanted).every(([k, v]) => jsonValueEquals(t.metadata?.[k], v)));
    threads.sort((a, b) => (direction === 'ASC' ? 1 : -1) * (timeOf(a[field]) - timeOf(b[field])));
    const { offset, perPage: perPageForResponse } = calculatePagination(page, perPageInput, perPage);
    return { threads: threads.slice(offset, offset + perPage), total: threads.length, page, perPage: perPageForResponse, hasMore: offset + perPage < threads.length };
  }

  // ---- messages -------------------------------------------------------------------------------

  override async listMessages(args: StorageListMessagesInput): Promise<StorageListMessagesOutput> {
    const { threadId, resourceId, include, filter, perPage: perPageInput, page = 0, orderBy } = args;
    const threadIds = Array.isArray(threadId) ? threadId : [threadId];
    if (threadIds.length === 0 || threadIds.some((id) => typeof id !== 'string' || !id.trim())) throw new Error('threadId must be a non-empty string or array of non-empty strings');
    if (page < 0) throw new Error('page must be >= 0');
    const perPage = normalizePerPage(perPageInput, 40);
    const { offset, perPage: perPageForResponse } = calculatePagination(page, perPageInput, perPage);
    const metadataFilter = checkMetadataFilter(filter?.metadata as Record<string, unknown> | undefined);
    const { direction } = this.parseOrderBy(orderBy, 'ASC');
    const empty = { messages: [], total: 0, page, perPage: perPageForResponse, hasMore: false };
    if (perPage === 0 && (!include || include.length === 0)) return empty;

    // One thread, no date or metadata filter: a range read of the page in the thread's order.
    if (perPage !== 0 && perPageInput !== false && threadIds.length === 1 && !metadataFilter && !filter?.dateRange) {
      const fast = await this.#page(threadIds[0] as string, resourceId, offset, perPage, direction, args.includeTotal !== false);
      if (fast !== undefined) {
        const out = fast.messages;
        if (include && include.length > 0) {
          const seen = new Set(out.map((m) => m.id));
          for (const m of await this.#included(include, resourceId)) {
            if (!seen.has(m.id)) {
              out.push(m);
              seen.add(m.id);
            }
          }
        }
        if (fast.total === 0 && out.length === 0) return empty;
        const messages = sortMessages(new MessageList().add(out, 'memory').get.all.db(), direction);
        // Fewer messages than the total cannot hold every message of the thread: no set to build.
        const allReturned = messages.length >= fast.total && new Set(messages.filter((m) => m.threadId === threadIds[0]).map((m) => m.id)).size >= fast.total;
        return { messages, total: fast.total, page, perPage: perPageForResponse, hasMore: fast.more && !allReturned };
      }
    }
    let matching: MastraDBMessage[] = [];
    if (perPage !== 0) {
      for (const id of [...new Set(threadIds)]) {
        for (const { message } of await this.#threadMessages(this.store, id)) {
          if (resourceId && message.resourceId !== resourceId) continue;
          if (!metadataMatches(message, metadataFilter)) continue;
          matching.push(readMessage(message));
        }
      }
      matching = filterByDateRange(matching, (m) => new Date(m.createdAt), filter?.dateRange);
      // Messages of one millisecond keep the order they were first saved in (reversed newest
      // first), as the range read of one thread gives them.
      if (direction === 'DESC') matching.reverse();
      sortMessages(matching, direction);
    }
    const total = matching.length;
    const pageMessages = perPageInput === false ? matching : matching.slice(offset, offset + perPage);
    const seen = new Set(pageMessages.map((m) => m.id));
    const out = [...pageMessages];
    for (const m of await this.#included(include, resourceId)) {
      if (!seen.has(m.id)) {
        out.push(m);
        seen.add(m.id);
      }
    }
    if (perPage === 0) return { ...empty, messages: sortMessages(new MessageList().add(out, 'memory').get.all.db(), direction) };
    if (total === 0 && out.length === 0) return empty;
    const messages = sortMessages(new MessageList().add(out, 'memory').get.all.db(), direction);
    const threadSet = new Set(threadIds);
    const allReturned = new Set(messages.filter((m) => m.threadId && threadSet.has(m.threadId)).map((m) => m.id)).size >= total;
    const hasMore = metadataFilter ? perPageInput !== false && offset + pageMessages.length < total : perPageInput !== false && !allReturned && offset + perPage < total;
    return { messages, total, page, perPage: perPageForResponse, hasMore };
  }

  /**
   * A page of one thread's messages by range read: the rows before the page are passed over in the
   * index (the adapter's `listBySourceRefRanges` or `sourceRefAt`) or only counted (read raw, their
   * payloads neither parsed nor returned), the page's rows are verified. `total` comes
   * from the thread's newest change row, so the call never reads the whole thread; `undefined`
   * when a total is asked with a `resourceId` filter (the count covers every resource: the caller
   * then reads the thread). Without a total, `total` is the messages up to the page's end plus one
   * when there are more (Mastra's contract for `includeTotal: false`).
   */
  async #page(threadId: string, resourceId: string | undefined, offset: number, perPage: number, direction: 'ASC' | 'DESC', wantTotal: boolean): Promise<{ messages: MastraDBMessage[]; total: number; more: boolean } | undefined> {
    if (wantTotal && resourceId) return undefined;
    const prefix = messagePrefix(threadId);
    const descending = direction === 'DESC';
    // One call where there would be two or three, when the adapter reads several ranges from an
    // offset at once: the page and one more message, to tell whether there are more, and with a
    // total the newest change row (decision 0048). The ranges are not promised as one snapshot
    // (SQLite reads them in turn, decision 0051): a message deleted between the page and the
    // change row would leave a count below what the page saw, and "more" taken from that count
    // would hide a message that was there all along; so "more" comes from the page's own read
    // (its 41st message, verified by the store like every row it reads, not parsed), and the total is never below
    // what the page saw. A first page without a total is one range read either way.
    if (!resourceId && (offset > 0 || wantTotal) && this.store.adapter.listBySourceRefRanges) {
      const page = { namespace: this.namespace, prefix, limit: perPage + 1, descending, offset };
      const [rows = [], change = []] = await this.store.listBySourceRefRanges(wantTotal ? [page, { namespace: this.namespace, prefix: changePrefix(threadId), descending: true, limit: 1 }] : [page]);
      const values = (await this.#parsed.valuesOf(this.store, this.namespace, rows.slice(0, perPage))) as StoredMessage[];
      // Without a total, Mastra's contract: the messages up to the page's end, plus one when there are more.
      const upTo = offset + values.length + (rows.length > perPage ? 1 : 0);
      // With it, never fewer than the read saw exist (`offset` passed over only when it found any after them).
      const total = wantTotal ? Math.max(countOf(change[0]), rows.length === 0 ? 0 : upTo) : upTo;
      return { messages: values.map(readMessage), total, more: rows.length > perPage || offset + values.length < total };
    }
    let from: string | undefined;
    // Skip `offset` messages: only the last one's ref is needed (a filter by resource needs their values).
    if (offset > 0 && !resourceId) {
      from = await refAt(this.store, this.namespace, prefix, offset - 1, descending);
      if (from === undefined) return { messages: [], total: wantTotal ? (await this.#lastChange(this.store, threadId)).count : offset, more: false };
    }
    const found: MastraDBMessage[] = [];
    let matched = resourceId ? 0 : offset;
    let more = false;
    for (;;) {
      const want = perPage + 1 - found.length;
      const bound = from === undefined ? {} : descending ? { before: from } : { after: from };
      const rows = await this.store.listBySourceRefPrefix({ namespace: this.namespace, prefix, limit: Math.max(want, resourceId ? 100 : want), descending, ...bound });
      const values = (await valuesOf(this.store, this.namespace, rows)) as StoredMessage[];
      for (const m of values) {
        if (resourceId && m.resourceId !== resourceId) continue;
        if (matched++ < offset) continue;
        if (found.length < perPage) found.push(readMessage(m));
        else more = true;
      }
      if (more || rows.length < Math.max(want, resourceId ? 100 : want)) break;
      from = rows[rows.length - 1]?.sourceRef ?? undefined;
    }
    const total = wantTotal ? (await this.#lastChange(this.store, threadId)).count : offset + found.length + (more ? 1 : 0);
    return { messages: found, total, more };
  }

  /** The messages `include` asks for: each target and its neighbours in its own thread (within `resourceId` when given). */
  async #included(include: StorageListMessagesInput['include'], resourceId: string | undefined): Promise<MastraDBMessage[]> {
    if (!include || include.length === 0) return [];
    const out: MastraDBMessage[] = [];
    const ids = new Set<string>();
    for (const item of include) {
      const index = await this.store.findBySourceRef(this.namespace, messageIdRef(item.id));
      if (!index) continue;
      const thread = (index.payload as { threadId: string }).threadId;
      const window = (await this.#threadMessages(this.store, thread)).map((m) => m.message).filter((m) => !resourceId || m.resourceId === resourceId);
      const at = window.findIndex((m) => m.id === item.id);
      if (at === -1) continue;
      for (const m of window.slice(Math.max(0, at - (item.withPreviousMessages ?? 0)), at + (item.withNextMessages ?? 0) + 1)) {
        if (ids.has(m.id)) continue;
        ids.add(m.id);
        out.push(readMessage(m));
      }
    }
    return out;
  }

  override async listMessagesByResourceId(args: StorageListMessagesByResourceIdInput): Promise<StorageListMessagesOutput> {
    const { resourceId, include, filter, perPage: perPageInput, page = 0, orderBy } = args;
    if (page < 0) throw new Error('page must be >= 0');
    const metadataFilter = checkMetadataFilter(filter?.metadata as Record<string, unknown> | undefined);
    const { direction } = this.parseOrderBy(orderBy, 'ASC');
    const perPage = normalizePerPage(perPageInput, 40);
    const { offset, perPage: perPageForResponse } = calculatePagination(page, perPageInput, perPage);
    const rows = await rowsByPrefix(this.store, this.namespace, 'm/', { kind: KINDS.message });
    let matching = ((await valuesOf(this.store, this.namespace, rows)) as StoredMessage[]).filter((m) => m.resourceId === resourceId && metadataMatches(m, metadataFilter)).map(readMessage);
    matching = sortMessages(filterByDateRange(matching, (m) => new Date(m.createdAt), filter?.dateRange), direction);
    const pageMessages = matching.slice(offset, offset + perPage);
    const ids = new Set(pageMessages.map((m) => m.id));
    const extra = (await this.#included(include, resourceId)).filter((m) => !ids.has(m.id));
    const messages = sortMessages(new MessageList().add([...pageMessages, ...extra], 'memory').get.all.db(), direction);
    return { messages, total: matching.length, page, perPage: perPageForResponse, hasMore: offset + pageMessages.length < matching.length };
  }

  override async listMessagesById({ messageIds }: { messageIds: string[] }): Promise<{ messages: MastraDBMessage[] }> {
    if (messageIds.length === 0) return { messages: [] };
    const index = await this.store.findBySourceRefs(this.namespace, messageIds.map(messageIdRef));
    const rows = index.length === 0 ? [] : await this.store.findBySourceRefs(this.namespace, index.map((i) => (i.payload as { ref: string }).ref));
    const byId = new Map(((await valuesOf(this.store, this.namespace, rows)) as StoredMessage[]).map((m) => [m.id, m]));
    // Newest first, as @mastra/libsql answers (ORDER BY createdAt DESC).
    const found = sortMessages([...new Set(messageIds)].flatMap((id) => {
      const m = byId.get(id);
      return m ? [readMessage(m)] : [];
    }), 'DESC');
    return { messages: new MessageList().add(found, 'memory').get.all.db() };
  }

  /**
   * Writes messages as their threads' new versions in the caller's transaction: each message in
   * its thread's order (a message saved again keeps its place and `createdAt`, as `@mastra/libsql`
   * does; moved to another thread, it moves), its id row, and one change row per thread.
   * Resolves to each thread's new newest change, for the memo once the transaction has committed.
   */
  async #writeMessages(tx: CheckpointStore, messages: StoredMessage[], op: 'save' | 'update'): Promise<Map<string, RememberedChange>> {
    const batch = batchOf(messages, op);
    const touched = new Set<string>();
    try {
      return await this.#writeBatch(tx, batch, op, touched);
    } catch (error) {
      // A refused insert may mean a remembered change is no longer the newest: a retry reads it.
      for (const threadId of touched) this.#changes?.delete(threadId);
      throw error;
    }
  }

  /** {@link #writeMessages} of a batch with one version per id; `touched` gets every thread it writes a change row of. */
  async #writeBatch(tx: CheckpointStore, batch: Map<string, StoredMessage>, op: 'save' | 'update', touched: Set<string>): Promise<Map<string, RememberedChange>> {
    const lasts = new Map<string, { seq: number; count: number }>();
    // The remembered newest change of each thread saved to is read with the ids' rows, by its ref
    // (one statement): still there with the remembered hash, it is the newest as long as the next
    // number is free, which the insert below checks (the ref is unique; a refusal forgets it).
    const remembered: [string, RememberedChange][] = [];
    for (const m of batch.values()) {
      touched.add(m.threadId);
      const known = lasts.has(m.threadId) ? undefined : this.#changes?.get(m.threadId);
      if (known === undefined) continue;
      remembered.push([m.threadId, known]);
      lasts.set(m.threadId, known);
    }
    const idRefs = [...batch.keys()].map(messageIdRef);
    const { index, hashes } = await this.#idRowsAndHashes(tx, idRefs, remembered.map(([threadId, known]) => changeRef(threadId, known.seq)));
    for (const [threadId, known] of remembered) {
      if (hashes.get(changeRef(threadId, known.seq)) === known.sha256) continue;
      lasts.delete(threadId);
      this.#changes?.delete(threadId);
    }
    const where = new Map(index.map((i) => [(i.payload as { messageId: string }).messageId, i]));
    const current = index.length === 0 ? [] : await tx.findBySourceRefs(this.namespace, index.map((i) => (i.payload as { ref: string }).ref));
    const currentValues = (await valuesOf(tx, this.namespace, current)) as StoredMessage[];
    const old = new Map(current.map((row, k) => [row.sourceRef, { row, value: currentValues[k] as StoredMessage }]));
    // Saved again: a message keeps its createdAt (and so its place), as @mastra/libsql keeps it.
    if (op === 'save') {
      for (const [id, m] of batch) {
        const idRow = where.get(id);
        const before = idRow ? old.get((idRow.payload as { ref: string }).ref) : undefined;
        if (before) batch.set(id, { ...m, createdAt: before.value.createdAt });
      }
    }
    const lastOf = async (threadId: string) => {
      if (!lasts.has(threadId)) lasts.set(threadId, await this.#lastChange(tx, threadId));
      return lasts.get(threadId) as { seq: number; count: number };
    };
    const changeSeq = async (threadId: string) => (await lastOf(threadId)).seq + 1;
    const delta = new Map<string, number>(); // change of each thread's message count
    const added = new Map<string, StoredMessage[]>(); // new versions, per thread
    const left = new Map<string, string[]>(); // ids that moved to another thread, per thread
    const rows: PreparedCheckpoint[] = []; // the new rows, written together at the end
    let i = 0;
    for (const m of batch.values()) {
      const idRow = where.get(m.id);
      const before = idRow ? old.get((idRow.payload as { ref: string }).ref) : undefined;
      const oldThread = idRow ? (idRow.payload as { threadId: string }).threadId : undefined;
      // Same thread and time: the new version takes the old one's place; else it goes where its time says.
      const ref =
        before && oldThread === m.threadId && timeOf(before.value.createdAt) === timeOf(m.createdAt)
          ? (before.row.sourceRef as string)
          : messageRef(m.threadId, timeOf(m.createdAt), (await changeSeq(m.threadId)) * 10_000 + (i++ % 10_000));
      await deleteValueRows(tx, this.namespace, [...(before ? [before.row] : []), ...(idRow ? [idRow] : [])]);
      if (oldThread !== m.threadId) {
        delta.set(m.threadId, (delta.get(m.threadId) ?? 0) + 1);
        if (oldThread !== undefined) {
          delta.set(oldThread, (delta.get(oldThread) ?? 0) - 1);
          left.set(oldThread, [...(left.get(oldThread) ?? []), m.id]);
        }
      }
      added.set(m.threadId, [...(added.get(m.threadId) ?? []), m]);
      this.#messageRows(tx, rows, m, ref);
    }
    const newest = new Map<string, RememberedChange>();
    for (const threadId of new Set([...added.keys(), ...left.keys()])) {
      touched.add(threadId);
      const last = await lastOf(threadId);
      const ids = left.get(threadId);
      const count = last.count + (delta.get(threadId) ?? 0);
      const change = this.#changeRows(tx, threadId, last.seq + 1, { op, count, value: added.get(threadId) ?? [], ...(ids ? { ids } : {}) });
      rows.push(...change);
      newest.set(threadId, { seq: last.seq + 1, count, sha256: (change.at(-1) as PreparedCheckpoint).payloadSha256 });
    }
    // Every new row in one multi-row insert, after every delete above (a new version may take the
    // ref its old one held); each message's rows in the order the loop wrote them before.
    await writeRows(tx, rows);
    return newest;
  }

  /** Adds a message's rows (its row, with parts when long, then its `i/` id row), prepared, to `rows`. */
  #messageRows(tx: CheckpointStore, rows: PreparedCheckpoint[], m: StoredMessage, ref: string): void {
    const sessionId = sessionOf(m.threadId);
    rows.push(...valueRows(tx, { namespace: this.namespace, sessionId, kind: KINDS.message, name: m.role ?? 'message', ref, fields: { messageId: m.id }, value: m }));
    rows.push(tx.prepare({ namespace: this.namespace, sessionId, kind: KINDS.messageId, name: 'message id', payload: { messageId: m.id, threadId: m.threadId, ref }, sourceRef: messageIdRef(m.id) }));
  }

  /**
   * A save whose every thread this object remembers, as one conditional multi-row insert
   * (`insertPreparedManyIfPresent`, autocommit): the rows today's transaction would write when
   * every message is new (each message's rows in its thread's next place, then one change row
   * `n + 1` per thread), inserted only while each thread's change row `n` holds the remembered
   * SHA-256 and no ref of the batch is taken. Change rows are numbered densely, so `n` there and
   * `n + 1` free means `n` is the newest; and a message saved before holds its `i/` ref, which
   * refuses the whole statement (it then needs today's reading path: its old row goes, and it
   * keeps its place and `createdAt`). Resolves to `false` when nothing was written (a thread not
   * remembered, a store without the statement, or refused): the caller takes the transaction,
   * which checks the memo again in its own read, so the memo is kept here.
   */
  async #saveRemembered(batch: Map<string, StoredMessage>): Promise<boolean> {
    const memo = this.#changes;
    const store = this.store;
    if (memo === undefined || !store.canInsertManyIfPresent) return false;
    // Where writers run at once (PostgreSQL), the statement takes the thread's lock as
    // lockThreads does, so a deleteThread that read the thread first commits before the check.
    // One lock key per statement: a save to several threads, or an adapter that locks with rows,
    // takes the transaction.
    const { concurrentTransactions, transactionLocks } = store.adapter.capabilities;
    if (concurrentTransactions && (transactionLocks !== true || new Set(Array.from(batch.values(), (m) => m.threadId)).size > 1)) return false;
    const known = new Map<string, RememberedChange>();
    const added = new Map<string, StoredMessage[]>();
    for (const m of batch.values()) {
      const list = added.get(m.threadId);
      if (list !== undefined) {
        list.push(m);
        continue;
      }
      const change = memo.get(m.threadId);
      if (change === undefined) return false;
      known.set(m.threadId, change);
      added.set(m.threadId, [m]);
    }
    const rows: PreparedCheckpoint[] = [];
    let i = 0;
    for (const m of batch.values()) {
      const seq = (known.get(m.threadId) as RememberedChange).seq + 1;
      this.#messageRows(store, rows, m, messageRef(m.threadId, timeOf(m.createdAt), seq * 10_000 + (i++ % 10_000)));
    }
    const newest = new Map<string, RememberedChange>();
    const present: { sourceRef: string; payloadSha256: string }[] = [];
    for (const [threadId, last] of known) {
      const messages = added.get(threadId) as StoredMessage[];
      const count = last.count + messages.length;
      const change = this.#changeRows(store, threadId, last.seq + 1, { op: 'save', count, value: messages });
      rows.push(...change);
      newest.set(threadId, { seq: last.seq + 1, count, sha256: (change.at(-1) as PreparedCheckpoint).payloadSha256 });
      present.push({ sourceRef: changeRef(threadId, last.seq), payloadSha256: last.sha256 });
    }
    const lockKey = concurrentTransactions ? threadLockKey(this.namespace, known.keys().next().value as string) : undefined;
    if ((await store.insertPreparedManyIfPresent(rows, { present, ...(lockKey === undefined ? {} : { lockKey }) })) === undefined) return false;
    this.#remember(newest);
    return true;
  }

  /**
   * The verified id rows of `idRefs` and the SHA-256 the store holds for each of `hashRefs`, in
   * one statement. The rows of `hashRefs` are only compared by the hash column with a hash this
   * object wrote or verified (their content is not read, so not verified here: the comparison is
   * the check, as the store's conditional insert makes it). A sealed store's column holds the
   * envelope's hash, and an adapter without `findBySourceRefs` has no one-statement read: both
   * read every row verified.
   */
  async #idRowsAndHashes(tx: CheckpointStore, idRefs: string[], hashRefs: string[]): Promise<{ index: Checkpoint[]; hashes: Map<string, string> }> {
    const hashes = new Map<string, string>();
    const adapter = tx.adapter;
    if (hashRefs.length === 0 || tx.keyIds !== undefined || !adapter.findBySourceRefs) {
      const isIdRef = new Set(idRefs);
      const found = await tx.findBySourceRefs(this.namespace, [...idRefs, ...hashRefs]);
      for (const row of found) if (!isIdRef.has(row.sourceRef as string)) hashes.set(row.sourceRef as string, row.payloadSha256);
      return { index: found.filter((row) => isIdRef.has(row.sourceRef as string)), hashes };
    }
    const isHashRef = new Set(hashRefs);
    const raw = await adapter.findBySourceRefs(this.namespace, [...new Set([...idRefs, ...hashRefs])]);
    const ids = [];
    for (const row of raw) {
      if (isHashRef.has(row.sourceRef as string)) hashes.set(row.sourceRef as string, row.payloadSha256);
      else ids.push(row);
    }
    if (ids.length === 0) return { index: [], hashes };
    const checked = tx.checkRows(ids);
    // A bad id row: the store's own verified read names every bad row, as it always did.
    if (checked.some((c) => !c.ok)) await tx.findBySourceRefs(this.namespace, idRefs);
    return { index: checked.flatMap((c) => (c.ok ? [c.row] : [])), hashes };
  }

  /** Remembers the newest change rows a committed transaction wrote. */
  #remember(newest: Map<string, RememberedChange>): void {
    for (const [threadId, change] of newest) this.#changes?.set(threadId, change);
  }

  override async saveMessages({ messages }: { messages: MastraDBMessage[] }): Promise<{ messages: MastraDBMessage[] }> {
    if (messages.length === 0) return { messages };
    const stored = messages.map((m, i) => {
      if (!m.threadId) throw new Error(`Expected to find a threadId for message ${i}, but couldn't find one.`);
      if (!m.resourceId) throw new Error(`Expected to find a resourceId for message ${i}, but couldn't find one.`);
      return recordJson({ id: m.id, threadId: m.threadId, resourceId: m.resourceId, role: m.role, type: m.type || 'v2', content: m.content, createdAt: m.createdAt ?? new Date() }, `message ${m.id}`) as StoredMessage;
    });
    if (await this.#saveRemembered(batchOf(stored, 'save'))) return { messages: new MessageList().add(messages, 'memory').get.all.db() };
    this.#remember(
      await inTransaction(this.store, async (tx) => {
        // Before any read: a delete of a thread saved to commits first (and the save writes a new history) or waits.
        const release = await lockThreads(tx, this.namespace, stored.map((m) => m.threadId));
        const newest = await this.#writeMessages(tx, stored, 'save');
        await release();
        return newest;
      }),
    );
    return { messages: new MessageList().add(messages, 'memory').get.all.db() };
  }

  override async updateMessages(args: { messages: MessageUpdate[] }): Promise<MastraDBMessage[]> {
    if (args.messages.length === 0) return [];
    const { out, newest } = await inTransaction(this.store, async (tx) => {
      const idRefs = args.messages.map((m) => messageIdRef(m.id));
      let index = await tx.findBySourceRefs(this.namespace, idRefs);
      // An update writes change rows to the threads its messages leave and join: it takes their
      // locks as a save does (a deleteThread that read one of them first commits before this reads
      // on), then reads the ids again, and starts over if a message moved to a thread not locked.
      const threadsOf = (rows: Checkpoint[]) => new Set([...rows.map((i) => (i.payload as { threadId: string }).threadId), ...args.messages.flatMap((m) => (typeof m.threadId === 'string' ? [m.threadId] : []))]);
      const locked = threadsOf(index);
      const release = await lockThreads(tx, this.namespace, locked);
      if (tx.adapter.capabilities.concurrentTransactions) {
        index = await tx.findBySourceRefs(this.namespace, idRefs);
        for (const threadId of threadsOf(index)) if (!locked.has(threadId)) throw new LostRace('a message moved to another thread while the update took its locks');
      }
      const rows = index.length === 0 ? [] : await tx.findBySourceRefs(this.namespace, index.map((i) => (i.payload as { ref: string }).ref));
      const byId = new Map(((await valuesOf(tx, this.namespace, rows)) as StoredMessage[]).map((m) => [m.id, m]));
      const next: StoredMessage[] = [];
      for (const update of args.messages) {
        const old = byId.get(update.id);
        if (!old) continue;
        const { content, ...fields } = jsonOf(update, `update of message ${update.id}`) as MessageUpdate;
        let merged = content === undefined ? old.content : content;
        if (content !== undefined && typeof content === 'object' && old.content && typeof old.content === 'object') {
          merged = { ...(old.content as Record<string, unknown>), ...content };
          const om = (old.content as { metadata?: object }).metadata;
          const nm = (content as { metadata?: object }).metadata;
          if (om && nm) (merged as Record<string, unknown>).metadata = { ...om, ...nm };
        }
        const version: StoredMessage = { ...old, ...(fields as Partial<StoredMessage>), content: merged, id: old.id } as StoredMessage;
        byId.set(old.id, version);
        next.push(version);
      }
      const newest = next.length === 0 ? new Map<string, RememberedChange>() : await this.#writeMessages(tx, next, 'update');
      await release();
      return { out: next.map(messageOut), newest };
    });
    this.#remember(newest);
    return out;
  }

  override async deleteMessages(messageIds: string[]): Promise<void> {
    if (!messageIds || messageIds.length === 0) return;
    await inTransaction(this.store, async (tx) => {
      const index = await tx.findBySourceRefs(this.namespace, messageIds.map(messageIdRef));
      if (index.length === 0) return;
      const rows = await tx.findBySourceRefs(this.namespace, index.map((i) => (i.payload as { ref: string }).ref));
      const byThread = new Map<string, string[]>();
      for (const i of index) {
        const { threadId, messageId } = i.payload as { threadId: string; messageId: string };
        byThread.set(threadId, [...(byThread.get(threadId) ?? []), messageId]);
      }
      await deleteValueRows(tx, this.namespace, [...rows, ...index]);
      for (const [threadId, ids] of byThread) {
        this.#changes?.delete(threadId);
        const last = await this.#lastChange(tx, threadId);
        await this.#writeChange(tx, threadId, last.seq + 1, { op: 'delete', count: last.count - ids.length, ids });
      }
    });
  }

  override async copyThread(args: StorageCloneThreadInput): Promise<StorageCopyThreadOutput> {
    const { sourceThreadId, newThreadId: provided, resourceId, title, metadata, options } = args;
    const source = await this.#threadRow(this.store, sourceThreadId);
    if (!source) throw new Error(`Source thread with id ${sourceThreadId} not found`);
    const newThreadId = provided || randomUUID();
    if (await this.store.findBySourceRef(this.namespace, threadRef(newThreadId))) throw new Error(`Thread with id ${newThreadId} already exists`);
    let messages = (await this.#threadMessages(this.store, sourceThreadId)).map((m) => m.message);
    const f = options?.messageFilter;
    if (f?.messageIds && f.messageIds.length > 0) {
      const keep = new Set(f.messageIds);
      messages = messages.filter((m) => keep.has(m.id));
    }
    if (f?.startDate) messages = messages.filter((m) => timeOf(m.createdAt) >= (f.startDate as Date).getTime());
    if (f?.endDate) messages = messages.filter((m) => timeOf(m.createdAt) <= (f.endDate as Date).getTime());
    if (options?.messageLimit && options.messageLimit > 0 && messages.length > options.messageLimit) messages = messages.slice(-options.messageLimit);
    const now = new Date();
    const lastMessageId = messages.at(-1)?.id;
    const thread: StorageThreadType = {
      id: newThreadId,
      resourceId: resourceId || source.thread.resourceId,
      // As @mastra/libsql and @mastra/pg: an untitled thread's copy is titled '' (Mastra's in-memory store leaves it out).
      title: title || (source.thread.title ? `Clone of ${source.thread.title}` : ''),
      metadata: { ...metadata, clone: { sourceThreadId, clonedAt: now, ...(lastMessageId ? { lastMessageId } : {}) } },
      createdAt: now,
      updatedAt: now,
    } as StorageThreadType;
    const messageIdMap: Record<string, string> = {};
    // As @mastra/libsql and @mastra/pg: every copy belongs to the new thread's resource, whatever
    // its source message's was (Mastra's in-memory store keeps each message's own).
    const copies = messages.map((m) => {
      const id = randomUUID();
      messageIdMap[m.id] = id;
      return { ...m, id, threadId: newThreadId, resourceId: thread.resourceId };
    });
    this.#changes?.delete(newThreadId);
    await inTransaction(this.store, async (tx) => {
      // As a save: a deleteThread of the new id that read it first commits before this reads it.
      const release = await lockThreads(tx, this.namespace, [newThreadId]);
      const rows = await this.#threadRows(tx, jsonOf(thread, 'thread') as StoredThread, undefined);
      // The new id may hold messages saved to it without a thread record (as in @mastra/libsql,
      // the copy then joins them): its history goes on from their change rows.
      const last = await this.#lastChange(tx, newThreadId);
      await writeRows(tx, [...rows, ...this.#changeRows(tx, newThreadId, last.seq + 1, { op: 'thread', count: last.count, value: jsonOf(thread, 'thread'), at: now.toISOString() })]);
      if (copies.length > 0) await this.#writeMessages(tx, copies, 'save');
      await release();
    });
    return { thread, messageIdMap };
  }

  // ---- resources (working memory) -------------------------------------------------------------

  override async getResourceById({ resourceId }: { resourceId: string }): Promise<StorageResourceType | null> {
    const row = await this.store.findBySourceRef(this.namespace, resourceRef(resourceId));
    if (!row) return null;
    const [r] = (await valuesOf(this.store, this.namespace, [row])) as [StorageResourceType & { createdAt: string; updatedAt: string }];
    return { ...r, createdAt: new Date(r.createdAt), updatedAt: new Date(r.updatedAt) };
  }

  async #putResource(tx: CheckpointStore, resource: StorageResourceType): Promise<void> {
    const previous = await tx.findBySourceRef(this.namespace, resourceRef(resource.id));
    if (previous) await deleteValueRows(tx, this.namespace, [previous]);
    await putValue(tx, { namespace: this.namespace, sessionId: sessionOf(resource.id), kind: KINDS.resource, name: 'resource', ref: resourceRef(resource.id), fields: { resourceId: resource.id }, value: jsonOf(resource, 'resource') });
  }

  override async saveResource({ resource }: { resource: StorageResourceType }): Promise<StorageResourceType> {
    await inTransaction(this.store, (tx) => this.#putResource(tx, resource));
    return resource;
  }

  override async updateResource({ resourceId, workingMemory, metadata }: { resourceId: string; workingMemory?: string; metadata?: Record<string, unknown> }): Promise<StorageResourceType> {
    return inTransaction(this.store, async (tx) => {
      const row = await tx.findBySourceRef(this.namespace, resourceRef(resourceId));
      const now = new Date();
      let resource: StorageResourceType;
      if (!row) resource = { id: resourceId, workingMemory, metadata: metadata || {}, createdAt: now, updatedAt: now } as StorageResourceType;
      else {
        const [old] = (await valuesOf(tx, this.namespace, [row])) as [StorageResourceType & { createdAt: string }];
        resource = { ...old, workingMemory: workingMemory !== undefined ? workingMemory : old.workingMemory, metadata: { ...old.metadata, ...metadata }, createdAt: new Date(old.createdAt), updatedAt: now };
      }
      await this.#putResource(tx, resource);
      return resource;
    });
  }

  // ---- observational memory (observational-memory.ts) ------------------------------------------

  override readonly supportsObservationalMemory = true;
  #omRows: ObservationalMemoryRows | undefined;

  /** The OM rows of this domain (made on first use: the store and namespace are set by then). */
  get #om(): ObservationalMemoryRows {
    return (this.#omRows ??= new ObservationalMemoryRows(this.store, this.namespace, (target, source) => this.deepMergeConfig(target, source)));
  }

  override getObservationalMemory(threadId: string | null, resourceId: string): Promise<ObservationalMemoryRecord | null> {
    return this.#om.get(threadId, resourceId);
  }

  override getObservationalMemoryHistory(threadId: string | null, resourceId: string, limit?: number, options?: ObservationalMemoryHistoryOptions): Promise<ObservationalMemoryRecord[]> {
    return this.#om.history(threadId, resourceId, limit, options);
  }

  override initializeObservationalMemory(input: CreateObservationalMemoryInput): Promise<ObservationalMemoryRecord> {
    return this.#om.initialize(input);
  }

  override insertObservationalMemoryRecord(record: ObservationalMemoryRecord): Promise<void> {
    return this.#om.insert(record);
  }

  override updateActiveObservations(input: UpdateActiveObservationsInput): Promise<void> {
    return this.#om.updateActive(input);
  }

  override updateBufferedObservations(input: UpdateBufferedObservationsInput): Promise<void> {
    return this.#om.updateBuffered(input);
  }

  override swapBufferedToActive(input: SwapBufferedToActiveInput): Promise<SwapBufferedToActiveResult> {
    return this.#om.swapBufferedToActive(input);
  }

  override createReflectionGeneration(input: CreateReflectionGenerationInput): Promise<ObservationalMemoryRecord> {
    return this.#om.createReflectionGeneration(input);
  }

  override updateBufferedReflection(input: UpdateBufferedReflectionInput): Promise<void> {
    return this.#om.updateBufferedReflection(input);
  }

  override swapBufferedReflectionToActive(input: SwapBufferedReflectionToActiveInput): Promise<ObservationalMemoryRecord> {
    return this.#om.swapBufferedReflectionToActive(input);
  }

  override setReflectingFlag(id: string, isReflecting: boolean): Promise<void> {
    return this.#om.setFlag(id, 'isReflecting', isReflecting);
  }

  override setObservingFlag(id: string, isObserving: boolean): Promise<void> {
    return this.#om.setFlag(id, 'isObserving', isObserving);
  }

  override setBufferingObservationFlag(id: string, isBuffering: boolean, lastBufferedAtTokens?: number): Promise<void> {
    return this.#om.setFlag(id, 'isBufferingObservation', isBuffering, lastBufferedAtTokens);
  }

  override setBufferingReflectionFlag(id: string, isBuffering: boolean): Promise<void> {
    return this.#om.setFlag(id, 'isBufferingReflection', isBuffering);
  }

  override clearObservationalMemory(threadId: string | null, resourceId: string): Promise<void> {
    return this.#om.clear(threadId, resourceId);
  }

  override setPendingMessageTokens(id: string, tokenCount: number): Promise<void> {
    return this.#om.setPendingMessageTokens(id, tokenCount);
  }

  override updateObservationalMemoryConfig(input: UpdateObservationalMemoryConfigInput): Promise<void> {
    return this.#om.updateConfig(input);
  }
}
