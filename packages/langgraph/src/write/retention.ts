import { INTERRUPT } from '@langchain/langgraph-checkpoint';
import { CheckpointValidationError, utf8ByteLength, type Checkpoint as StoredRow, type CheckpointStore } from '@session-checkpoint/core';
import { checkpointPayload, isCheckpointRow, keyOf, writePayload, type CheckpointPayload } from '../format/payloads.js';
import { checkpointPrefix, partsPrefix } from '../format/refs.js';
import { allRowsByPrefix } from '../read/entries.js';
import { lockThread } from './thread-lock.js';

/** Options of `SessionCheckpointSaver.prune`. A checkpoint is selected when it matches every criterion given. */
export interface SaverPruneOptions {
  /** Only this thread. Default is every thread of the saver's namespace. */
  threadId?: string;
  /** Only this checkpoint namespace (`""` is the root graph). Default is every one. */
  checkpointNs?: string;
  /** Keep the newest N checkpoints of each (thread, checkpoint_ns); older ones are selected. */
  keepLatest?: number;
  /** Select checkpoints created before this instant. */
  olderThan?: string | Date;
  /** Actually delete. Default is `false` (dry run). */
  apply?: boolean;
}

/** What a prune selected, kept back and (when applied) freed. */
export interface PruneReport {
  /** `true` unless `apply` was given. */
  dryRun: boolean;
  /** Checkpoint ids removed (or that would be), per thread. */
  checkpoints: { threadId: string; checkpointNs: string; checkpointId: string }[];
  /** Rows of pending writes (one per task) removed with them. */
  writes: number;
  /** Checkpoint ids kept back because an interrupt on them has not been resumed. */
  keptForInterrupt: string[];
  /** Checkpoint ids kept back because a kept checkpoint reads channel values from them. */
  keptForValues: string[];
  /** Payload bytes of every row removed (or that would be). */
  freedBytes: number;
}


/**
 * Retention over the LangGraph rows of a namespace. Never removes the newest checkpoint of a
 * (thread, checkpoint_ns), a checkpoint whose interrupt was not resumed yet (it has an
 * `__interrupt__` write and no child), or a checkpoint whose values a kept one carries over.
 */
export async function pruneThreads(store: CheckpointStore, namespace: string, options: SaverPruneOptions): Promise<PruneReport> {
  if (options.keepLatest === undefined && options.olderThan === undefined) {
    throw new CheckpointValidationError('prune needs keepLatest and/or olderThan');
  }
  if (options.keepLatest !== undefined && (!Number.isSafeInteger(options.keepLatest) || options.keepLatest < 0)) {
    throw new CheckpointValidationError('keepLatest must be a non-negative integer');
  }
  const olderThan = options.olderThan === undefined ? undefined : new Date(options.olderThan).getTime();
  if (Number.isNaN(olderThan)) throw new CheckpointValidationError('olderThan must be a valid date');
  const threads =
    options.threadId !== undefined ? [options.threadId] : (await store.sessions({ namespace })).map((s) => s.sessionId);
  const apply = options.apply === true;
  const report: PruneReport = { dryRun: !apply, checkpoints: [], writes: 0, keptForInterrupt: [], keptForValues: [], freedBytes: 0 };
  for (const threadId of threads) {
    if (!apply) {
      await pruneThread(store, namespace, threadId, options, olderThan, report);
      continue;
    }
    await store.transaction(async (tx) => {
      // Under the thread's lock: no put in flight links to a row this removes (see write/thread-lock.ts).
      const release = await lockThread(tx, namespace, threadId);
      // Through the facade; `force` because a damaged old row must not block retention.
      for (const id of await pruneThread(tx, namespace, threadId, options, olderThan, report)) await tx.delete(id, { namespace, apply: true, force: true });
      await release();
    });
  }
  return report;
}

/** Selects the rows of one thread to remove, counting them in `report`; their ids, ascending. */
async function pruneThread(store: CheckpointStore, namespace: string, threadId: string, options: SaverPruneOptions, olderThan: number | undefined, report: PruneReport): Promise<number[]> {
  const everything = await allRowsByPrefix(store, { namespace, prefix: checkpointPrefix(threadId, options.checkpointNs) });
  const all = everything.filter(isCheckpointRow).map((row) => ({ row, p: checkpointPayload(row) }));
  const byKey = new Map(all.map((e) => [keyOf(e.p), e]));
  const hasChild = new Set<string>();
  for (const { p } of all) if (p.parent_checkpoint_id !== null) hasChild.add(keyOf({ ...p, checkpoint_id: p.parent_checkpoint_id }));
  const interrupted = new Set<string>();
  const writesOf = new Map<string, StoredRow[]>();
  for (const row of everything.filter((r) => !isCheckpointRow(r))) {
    const w = writePayload(row);
    const k = keyOf(w);
    if (w.writes.some((write) => write.channel === INTERRUPT)) interrupted.add(k);
    writesOf.set(k, [...(writesOf.get(k) ?? []), row]);
  }
  // Select per (thread, checkpoint_ns), newest first by checkpoint id.
  const byNs = new Map<string, typeof all>();
  for (const e of all) byNs.set(e.p.checkpoint_ns, [...(byNs.get(e.p.checkpoint_ns) ?? []), e]);
  const selected = new Set<string>();
  for (const list of byNs.values()) {
    list.sort((a, b) => (a.p.checkpoint_id < b.p.checkpoint_id ? 1 : a.p.checkpoint_id > b.p.checkpoint_id ? -1 : 0));
    list.forEach(({ row, p }, index) => {
      const k = keyOf(p);
      if (index === 0 || index < (options.keepLatest ?? 0) || !(olderThan === undefined || Date.parse(row.createdAt) < olderThan)) return;
      if (interrupted.has(k) && !hasChild.has(k)) report.keptForInterrupt.push(p.checkpoint_id);
      else selected.add(k);
    });
  }
  // Keep every holder of a value a kept checkpoint reads, until nothing changes.
  const pending = all.filter((e) => !selected.has(keyOf(e.p))).map((e) => e.p);
  while (pending.length > 0) {
    const p = pending.pop() as CheckpointPayload;
    for (const holderId of [...Object.values(p.carried), ...Object.values(p.lists ?? {}).map((piece) => piece.from)]) {
      const k = keyOf({ ...p, checkpoint_id: holderId });
      if (selected.delete(k)) {
        report.keptForValues.push(holderId);
        const holder = byKey.get(k);
        if (holder) pending.push(holder.p);
      }
    }
  }
  const rows: StoredRow[] = [];
  for (const k of selected) {
    const e = byKey.get(k) as (typeof all)[number];
    rows.push(e.row, ...(writesOf.get(k) ?? []));
    // Every part row goes with its checkpoint: its values' and writes' parts, and the copies
    // write/rows.ts keeps of pending-writes rows a later putWrites replaced (named or not).
    // Read through the facade, so verified.
    rows.push(...(await allRowsByPrefix(store, { namespace, prefix: partsPrefix(e.p.thread_id, e.p.checkpoint_ns, e.p.checkpoint_id) })));
    report.checkpoints.push({ threadId, checkpointNs: e.p.checkpoint_ns, checkpointId: e.p.checkpoint_id });
    report.writes += writesOf.get(k)?.length ?? 0;
  }
  for (const row of rows) report.freedBytes += utf8ByteLength(row.payloadJson);
  return rows.map((row) => row.id).sort((a, b) => a - b);
}
