import { CheckpointNotFoundError, CheckpointValidationError, type CheckpointStore } from '@session-checkpoint/core';
import { checkedRange, decodeCursor, encodeCursor, rawRange, rowError, utf8Length, type RowError } from '@session-checkpoint/core/toolkit';
import { KINDS, MASTRA_NAMESPACE } from './namespace.js';
import { rangePages, wholeRange } from './range-pages.js';
import { changePrefix, messagePrefix, seqOf } from './refs.js';
import type { ChangePayload, StoredMessage, StoredThread } from './types.js';
import { valuesOf } from './values.js';

/** Where a reader looks. */
export interface MastraRowsPlace {
  /** Store namespace of the Mastra rows. Default is `"mastra"`. */
  namespace?: string;
}

/** One Mastra thread of a store namespace. */
export interface MastraThreadSummary {
  family: 'mastra';
  namespace: string;
  thread_id: string;
  resource_id: string;
  checkpoint_ns: string[];
  /** Messages in the thread now. */
  count: number;
  /** Changes (versions) of the thread's memory. */
  changes: number;
  /** UTF-8 bytes of the payloads of the thread's rows (record, current messages, changes; parts left out). */
  bytes: number;
  title: string | null;
  first_created_at: string;
  latest_created_at: string;
}

/** One change of a thread's memory, newest first in a timeline page. */
export interface MastraChangeEntry {
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  checkpoint_ns: '';
  /** `save`, `update`, `delete` (messages) or `thread` (the thread record). */
  op: string;
  /** Messages in the thread after the change. */
  count: number;
  created_at: string;
  bytes: number;
  row_id: number;
  status: 'verified' | 'failed';
  error?: RowError;
}

/** The memory of a thread after one change: the thread record and its messages, in Mastra's order. */
export interface MastraThreadState {
  family: 'mastra';
  namespace: string;
  thread_id: string;
  /** The change shown (`0` when none). */
  step: number;
  thread: StoredThread | null;
  messages: StoredMessage[];
}

/**
 * The threads of a store namespace, most recently changed first (reads each thread record and its
 * newest change row, verified).
 *
 * @example
 * ```ts
 * for (const t of await mastraThreads(store)) console.log(t.thread_id, t.count);
 * ```
 */
export async function mastraThreads(store: CheckpointStore, options: MastraRowsPlace = {}): Promise<MastraThreadSummary[]> {
  const namespace = options.namespace ?? MASTRA_NAMESPACE;
  // Every thread record, a page at a time (a namespace may hold any number of threads).
  const rows = await wholeRange((q) => store.listBySourceRefPrefix(q), { namespace, prefix: 't/', kind: KINDS.thread });
  const threads = (await valuesOf(store, namespace, rows)) as StoredThread[];
  const out: MastraThreadSummary[] = [];
  for (const [i, t] of threads.entries()) {
    const [last] = await store.listBySourceRefPrefix({ namespace, prefix: changePrefix(t.id), descending: true, limit: 1 });
    const change = last?.payload as unknown as ChangePayload | undefined;
    let bytes = utf8Length(rows[i]?.payloadJson);
    for (const prefix of [messagePrefix(t.id), changePrefix(t.id)]) {
      for await (const page of rangePages((q) => rawRange(store, q), { namespace, prefix })) for (const row of page) bytes += utf8Length(row.payloadJson);
    }
    out.push({ family: 'mastra', namespace, thread_id: t.id, resource_id: t.resourceId, checkpoint_ns: [''], count: change?.count ?? 0, changes: change?.seq ?? 0, bytes, title: t.title ?? null, first_created_at: t.createdAt, latest_created_at: last?.createdAt ?? rows[i]?.createdAt ?? t.updatedAt });
  }
  return out.sort((a, b) => (a.latest_created_at < b.latest_created_at ? 1 : a.latest_created_at > b.latest_created_at ? -1 : 0));
}

/**
 * One page of a thread's changes, newest first: what each did (`op`) and the message count after
 * it, each row verified on its own (a failed row is an entry with `status: "failed"`).
 *
 * @throws CheckpointValidationError for a bad `limit` or `cursor`.
 */
export async function mastraThreadTimeline(store: CheckpointStore, options: MastraRowsPlace & { threadId: string; limit?: number; cursor?: string }): Promise<{ entries: MastraChangeEntry[]; next_cursor: string | null }> {
  const namespace = options.namespace ?? MASTRA_NAMESPACE;
  const limit = options.limit ?? 100;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new CheckpointValidationError('limit must be an integer from 1 to 1000');
  const before = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  if (options.cursor !== undefined && before === undefined) throw new CheckpointValidationError(`not a timeline cursor: ${JSON.stringify(options.cursor)}`);
  const page = await checkedRange(store, { namespace, prefix: changePrefix(options.threadId), descending: true, limit: limit + 1, ...(before === undefined ? {} : { before }) });
  const entries = page.slice(0, limit).map((c): MastraChangeEntry => {
    const raw = c.ok ? c.row : c.raw;
    const seq = seqOf(raw.sourceRef);
    const p = c.ok ? (c.row.payload as unknown as ChangePayload) : undefined;
    return {
      checkpoint_id: String(seq),
      parent_checkpoint_id: seq > 1 ? String(seq - 1) : null,
      checkpoint_ns: '',
      op: p?.op ?? 'unknown',
      count: p?.count ?? 0,
      created_at: String(raw.createdAt),
      bytes: utf8Length(raw.payloadJson),
      row_id: Number(raw.id),
      status: c.ok ? 'verified' : 'failed',
      ...(c.ok ? {} : { error: rowError(c.error) }),
    };
  });
  const last = page[Math.min(limit, page.length) - 1];
  const lastRef = last ? (last.ok ? last.row : last.raw).sourceRef : null;
  return { entries, next_cursor: page.length > limit && lastRef !== null ? encodeCursor(lastRef) : null };
}

/**
 * What the agent had in memory after change `step` of a thread (the newest when absent): the
 * thread's change rows folded oldest first, each verified.
 *
 * @throws CheckpointNotFoundError when the thread has no change rows; CheckpointIntegrityError for a bad row.
 * @example
 * ```ts
 * const { messages } = await mastraThreadState(store, { threadId: 'thread-1', step: 3 });
 * ```
 */
export async function mastraThreadState(store: CheckpointStore, options: MastraRowsPlace & { threadId: string; step?: number }): Promise<MastraThreadState> {
  const namespace = options.namespace ?? MASTRA_NAMESPACE;
  if (options.step !== undefined && (!Number.isSafeInteger(options.step) || options.step < 0)) throw new CheckpointValidationError('step must be a non-negative integer');
  const rows = (await store.listBySourceRefPrefix({ namespace, prefix: changePrefix(options.threadId), limit: options.step ?? 1_000_000, kind: KINDS.change })).filter((r) => options.step === undefined || seqOf(r.sourceRef) <= (options.step as number));
  if (rows.length === 0) throw new CheckpointNotFoundError(`no Mastra thread '${options.threadId}' in namespace '${namespace}'`);
  const values = await valuesOf(store, namespace, rows);
  let thread: StoredThread | null = null;
  const messages = new Map<string, StoredMessage>();
  rows.forEach((row, i) => {
    const p = row.payload as unknown as ChangePayload;
    if (p.op === 'thread') thread = values[i] as StoredThread;
    else if (p.op === 'delete') for (const id of p.ids ?? []) messages.delete(id);
    else {
      for (const id of p.ids ?? []) messages.delete(id); // moved to another thread
      for (const m of (values[i] as StoredMessage[] | null) ?? []) messages.set(m.id, m);
    }
  });
  const ordered = [...messages.values()].sort((a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime());
  return { family: 'mastra', namespace, thread_id: options.threadId, step: seqOf(rows[rows.length - 1]?.sourceRef ?? null), thread, messages: ordered };
}
