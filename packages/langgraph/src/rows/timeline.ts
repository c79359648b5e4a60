import { CheckpointValidationError, type Checkpoint as StoredRow, type CheckpointRow, type CheckpointStore } from '@session-checkpoint/core';
import { checkedByRef, checkedRange, decodeCursor, encodeCursor, rowError, utf8Length } from '@session-checkpoint/core/toolkit';
import { checkpointPayload, CHECKPOINT_KIND, jsonForm, LANGGRAPH_NAMESPACE, valuePartRefs, writePartRefs, writePayload, type CheckpointPayload } from '../format/payloads.js';
import { checkpointPrefix, parseSourceRef } from '../format/refs.js';
import type { LanggraphTimelineEntry, RowError, RowsPlace, TimelinePage } from './types.js';

/** Options of {@link langgraphTimeline}. */
export interface LanggraphTimelineOptions extends RowsPlace {
  threadId: string;
  /** Default is `""` (the root graph). */
  checkpointNs?: string;
  /** Checkpoints per page, 1 to 1000. Default is `100`. */
  limit?: number;
  /** `next_cursor` of the previous page. Default is the newest page. */
  cursor?: string;
}

/** The page size and the bound of a timeline page (also `./official`'s), checked. */
export function pageStart(options: { limit?: number; cursor?: string }): { limit: number; before: string | undefined } {
  const limit = options.limit ?? 100;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new CheckpointValidationError('limit must be an integer from 1 to 1000');
  const before = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  if (options.cursor !== undefined && before === undefined) throw new CheckpointValidationError(`not a timeline cursor: ${JSON.stringify(options.cursor)}`);
  return { limit, before };
}

/** A checkpoint row of the page with the write rows read before it (descending order puts them first). */
interface Step {
  ref: string;
  row: CheckpointRow;
  bytes: number;
  error?: RowError;
  p?: CheckpointPayload;
  writeChannels: Set<string>;
  partRefs: string[];
}

/**
 * One page of a thread's checkpoints in one checkpoint namespace, newest first (by checkpoint id,
 * as `list` orders them). Reads only the rows of the page (a range read of the checkpoint rows
 * with their writes, one read of their part rows), never a state: each entry carries its ids,
 * times, stored bytes, metadata and the channels it changed. Each row is verified on its own: a
 * row that fails (or is not a row the saver writes) makes its entry `status: "failed"` with the
 * error, never left out. `"verified"` covers the step's own rows; the rows a state reads from
 * earlier steps are verified when {@link langgraphState} rebuilds it.
 *
 * @throws CheckpointValidationError for a bad `limit` or `cursor`.
 * @example
 * ```ts
 * let page = await langgraphTimeline(store, { threadId: 'chat-1', limit: 50 });
 * while (page.next_cursor) page = await langgraphTimeline(store, { threadId: 'chat-1', limit: 50, cursor: page.next_cursor });
 * ```
 */
export async function langgraphTimeline(store: CheckpointStore, options: LanggraphTimelineOptions): Promise<TimelinePage<LanggraphTimelineEntry>> {
  const namespace = options.namespace ?? LANGGRAPH_NAMESPACE;
  const { limit, before: start } = pageStart(options);
  let before = start;
  const prefix = checkpointPrefix(options.threadId, options.checkpointNs ?? '');
  const steps: Step[] = [];
  // Writes come before their checkpoint in descending order: keep them until it shows up.
  let pending: { bytes: number; error?: RowError; channels: string[]; partRefs: string[] }[] = [];
  let more = false;
  const chunk = Math.min(1000, limit * 2 + 2);
  read: for (;;) {
    // Raw rows, each checked on its own: a bad row does not fail the page.
    const page = await checkedRange(store, { namespace, prefix, descending: true, limit: chunk, ...(before === undefined ? {} : { before }) });
    for (const checked of page) {
      const raw = checked.ok ? checked.row : checked.raw;
      const ref = String(raw.sourceRef);
      const parsed = parseSourceRef(raw.sourceRef);
      if (steps.length === limit) {
        more = true;
        break read;
      }
      before = ref;
      const bytes = utf8Length(raw.payloadJson);
      if (parsed?.what === 'writes' || (checked.ok && checked.row.kind !== CHECKPOINT_KIND)) {
        try {
          if (!checked.ok) throw checked.error;
          const w = writePayload(checked.row);
          pending.push({ bytes, channels: w.writes.map((x) => x.channel), partRefs: writePartRefs(w) });
        } catch (error) {
          pending.push({ bytes, error: rowError(error), channels: [], partRefs: [] });
        }
        continue;
      }
      const step: Step = { ref, row: raw as CheckpointRow, bytes, writeChannels: new Set(), partRefs: [] };
      try {
        if (!checked.ok) throw checked.error;
        step.p = checkpointPayload(checked.row as StoredRow);
        step.partRefs = valuePartRefs(step.p);
      } catch (error) {
        step.error = rowError(error);
      }
      for (const w of pending) {
        step.bytes += w.bytes;
        if (w.error && !step.error) step.error = w.error;
        for (const ch of w.channels) step.writeChannels.add(ch);
        step.partRefs.push(...w.partRefs);
      }
      pending = [];
      steps.push(step);
    }
    if (page.length < chunk) break;
  }
  await addParts(store, namespace, steps);
  return { entries: steps.map(entryOf), next_cursor: more && steps.length > 0 ? encodeCursor((steps[steps.length - 1] as Step).ref) : null };
}

/** Adds the bytes of the steps' part rows (one read), failing a step whose part row fails. */
async function addParts(store: CheckpointStore, namespace: string, steps: Step[]): Promise<void> {
  const refs = steps.flatMap((s) => s.partRefs);
  if (refs.length === 0) return;
  const byRef = await checkedByRef(store, namespace, refs);
  for (const step of steps) {
    for (const ref of step.partRefs) {
      const c = byRef.get(ref);
      if (c === undefined) continue; // a missing part fails the state read, named there
      step.bytes += utf8Length((c.ok ? c.row : c.raw).payloadJson);
      if (!c.ok && !step.error) step.error = rowError(c.error);
    }
  }
}

function entryOf(step: Step): LanggraphTimelineEntry {
  const parsed = parseSourceRef(step.row.sourceRef);
  const p = step.p;
  const entry: LanggraphTimelineEntry = {
    checkpoint_id: p?.checkpoint_id ?? parsed?.id ?? '',
    parent_checkpoint_id: p?.parent_checkpoint_id ?? null,
    checkpoint_ns: p?.checkpoint_ns ?? parsed?.ns ?? '',
    created_at: String(step.row.createdAt),
    bytes: step.bytes,
    row_id: Number(step.row.id),
    status: step.error ? 'failed' : 'verified',
  };
  if (step.error) entry.error = step.error;
  if (p) {
    const checkpoint = jsonForm(p.checkpoint) as Record<string, unknown> | null;
    if (checkpoint !== null && typeof checkpoint === 'object' && typeof checkpoint.ts === 'string') entry.ts = checkpoint.ts;
    entry.metadata = jsonForm(p.metadata);
    entry.changed_channels = [...Object.keys(p.values), ...Object.keys(p.lists ?? {})].sort();
    entry.channels = [...Object.keys(p.values), ...Object.keys(p.lists ?? {}), ...Object.keys(p.carried)].sort();
    entry.write_channels = [...step.writeChannels].sort();
  }
  return entry;
}
