import { CheckpointIntegrityError, type Checkpoint as StoredRow, type SourceRefPrefixQuery } from '@session-checkpoint/core';
import { compareCodePoints } from '@session-checkpoint/core/toolkit';
import { joinValue } from '../format/parts.js';
import { checkpointPayload, isCheckpointRow, keyOf, writePartRefs, writePayload, type CheckpointPayload, type StoredValue, type StoredWrite, type WritePayload } from '../format/payloads.js';
import { checkpointBound, checkpointRef, writePartRef, writesBeyondBound } from '../format/refs.js';
import type { RowReads } from './parsed-payloads.js';

/*
 * Verified rows grouped into checkpoints with their pending writes: the saver's read path and the
 * framework-free readers (`./rows`) both start here, so they find the same rows the same way.
 * No LangGraph import: this module is part of the `rows` subpath's import graph.
 */

/** Rows read per range query. */
export const PAGE_SIZE = 500;

/** Every row of an ascending range read, page by page: `read` gets the source ref to go on after. */
export async function* pagedRows<R extends { sourceRef: string | null }>(pageSize: number, read: (after: string | undefined) => Promise<readonly R[]>, after?: string): AsyncGenerator<R> {
  for (;;) {
    const page = await read(after);
    yield* page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]?.sourceRef ?? undefined;
    if (after === undefined) return;
  }
}

/** Every verified row of a prefix range, ascending by source ref, read page by page. */
export function rowsByPrefix(store: RowReads, query: Omit<SourceRefPrefixQuery, 'limit' | 'descending'>): AsyncGenerator<StoredRow> {
  return pagedRows(PAGE_SIZE, (after) => store.listBySourceRefPrefix({ ...query, ...(after === undefined ? {} : { after }), limit: PAGE_SIZE }), query.after);
}

/** {@link rowsByPrefix} collected into an array. */
export async function allRowsByPrefix(store: RowReads, query: Omit<SourceRefPrefixQuery, 'limit' | 'descending'>): Promise<StoredRow[]> {
  const out: StoredRow[] = [];
  for await (const row of rowsByPrefix(store, query)) out.push(row);
  return out;
}

/** A checkpoint payload with the write payloads of its tasks. */
export interface CheckpointEntry {
  checkpoint: CheckpointPayload;
  writes: WritePayload[];
  /** The checkpoint row's verified payload SHA-256 and its id. */
  sha: string;
  rowId: number;
}

/**
 * Splits verified rows of a range read into checkpoints and the writes found for each, keeping
 * the order of the checkpoints. Writes of checkpoints not among `rows` are returned in `orphans`.
 */
export function groupRows(rows: readonly StoredRow[], orphans = new Map<string, WritePayload[]>()): CheckpointEntry[] {
  const entries: CheckpointEntry[] = [];
  for (const row of rows) {
    if (isCheckpointRow(row)) entries.push({ checkpoint: checkpointPayload(row), writes: [], sha: row.payloadSha256, rowId: row.id });
    else {
      const w = writePayload(row);
      const k = keyOf(w);
      const list = orphans.get(k);
      if (list) list.push(w);
      else orphans.set(k, [w]);
    }
  }
  for (const entry of entries) {
    const k = keyOf(entry.checkpoint);
    entry.writes = orphans.get(k) ?? [];
    orphans.delete(k);
  }
  return entries;
}

/**
 * Pending writes of task rows, flattened in LangGraph's order of a superstep's writes
 * (`writesSortKey(task_path, task_id, idx)` compared by `compareWritesSortKeys`): task path, then
 * task id, by code point, then idx numerically.
 */
export function sortedWrites(rows: readonly WritePayload[]): { task: WritePayload; write: StoredWrite }[] {
  return rows
    .flatMap((task) => task.writes.map((write) => ({ task, write })))
    .sort((a, b) => compareCodePoints(a.task.task_path, b.task.task_path) || compareCodePoints(a.task.task_id, b.task.task_id) || a.write.idx - b.write.idx);
}

/** The checkpoint `id` of (`thread`, `ns`) with its writes, or `undefined` when it is not stored. */
export async function entryAt(store: RowReads, namespace: string, thread: string, ns: string, id: string): Promise<CheckpointEntry | undefined> {
  // The checkpoint and its writes in one range: its ref, then its ref continued by "/".
  const ref = checkpointRef(thread, ns, id);
  // One page nearly always holds it all; only a checkpoint with hundreds of task rows reads on.
  const page = await store.listBySourceRefPrefix({ namespace, prefix: ref, limit: PAGE_SIZE });
  const rows = page.length < PAGE_SIZE ? page : await allRowsByPrefix(store, { namespace, prefix: ref });
  const [entry] = groupRows(rows.filter((row) => row.sourceRef === ref || row.sourceRef?.startsWith(`${ref}/`)));
  return entry;
}

/**
 * Checkpoints of one (thread, namespace) prefix, newest first, each with its writes: a
 * descending range read, where a checkpoint's writes come just before it. Pages start at about
 * `hint` checkpoints and grow by `growth` (default 4) up to PAGE_SIZE rows.
 */
export async function* newestEntries(store: RowReads, namespace: string, prefix: string, before: string | undefined, hint: number, growth = 4): AsyncGenerator<CheckpointEntry> {
  const orphans = new Map<string, WritePayload[]>();
  // Every row read is verified, so read about what is needed and grow the pages when more is:
  // `hint` checkpoints and one more row (e.g. the latest checkpoint and one task's writes).
  let limit = Math.min(PAGE_SIZE, hint + 1);
  let bound = before;
  for (;;) {
    const page = await store.listBySourceRefPrefix({ namespace, prefix, descending: true, limit, ...(bound === undefined ? {} : { before: bound }) });
    for (const entry of groupRows(page, orphans)) {
      if (before !== undefined) {
        // A checkpoint whose id begins the bound's (ids "a" and "a-1") has its writes above the bound.
        const ref = checkpointBound(entry.checkpoint.thread_id, entry.checkpoint.checkpoint_ns, entry.checkpoint.checkpoint_id);
        if (writesBeyondBound(ref, before)) entry.writes = (await allRowsByPrefix(store, { namespace, prefix: `${ref}/` })).map(writePayload);
      }
      yield entry;
    }
    if (page.length < limit) return;
    bound = page[page.length - 1]?.sourceRef ?? undefined;
    limit = Math.min(PAGE_SIZE, limit * growth);
  }
}

/** The verified rows of `refs`, by ref, added to `into`, in one call (none without refs). */
export async function rowsByRef(store: RowReads, namespace: string, refs: string[], into = new Map<string, StoredRow>()): Promise<Map<string, StoredRow>> {
  if (refs.length > 0) for (const row of await store.findBySourceRefs(namespace, refs)) if (row.sourceRef !== null) into.set(row.sourceRef, row);
  return into;
}

/** The part rows of split pending writes of these entries, by ref, in one call. */
export function writePartRows(store: RowReads, namespace: string, entries: readonly CheckpointEntry[]): Promise<Map<string, StoredRow>> {
  return rowsByRef(store, namespace, entries.flatMap((e) => e.writes.flatMap(writePartRefs)));
}

/** A pending write's stored value, joined back from its verified part rows (each bound by its SHA-256) when split. */
export function storedWrite(p: CheckpointPayload, task: WritePayload, write: StoredWrite, parts: Map<string, StoredRow>): StoredValue {
  if (write.value.parts === undefined) return write.value;
  const rowOf = (k: number) => parts.get(writePartRef(task.thread_id, task.checkpoint_ns, task.checkpoint_id, task.task_id, k));
  return joinValue(write.value, rowOf, (reason) =>
    new CheckpointIntegrityError(`LangGraph checkpoint ${p.checkpoint_id} of thread '${p.thread_id}': write '${write.channel}' of task ${task.task_id} cannot be rebuilt: ${reason}`, {
      failures: [],
    }),
  );
}
