import { CheckpointValidationError, type CheckpointRow, type CheckpointStore } from '@session-checkpoint/core';
import { rowEntries } from '../format/item-codec.js';
import { AGENTS_NAMESPACE, itemPrefix, partRef, seqOfRef } from '../format/source-refs.js';
import { checkedByRef, checkedRange, decodeCursor, encodeCursor, rowError, utf8Length } from '@session-checkpoint/core/toolkit';
import type { SessionRowsPlace, SessionTimelineEntry, TimelinePage } from './types.js';

/** Options of {@link sessionTimeline}. */
export interface SessionTimelineOptions extends SessionRowsPlace {
  sessionId: string;
  /** Rows per page, 1 to 1000. Default is `100`. */
  limit?: number;
  /** `next_cursor` of the previous page. Default is the newest page. */
  cursor?: string;
}

/**
 * One page of a session's item rows, newest first, without decoding items: positions, times,
 * bytes and verification status per row (its part rows included). A row that fails verification
 * is an entry with `status: "failed"` and the error, never left out.
 *
 * @throws CheckpointValidationError for a bad `limit` or `cursor`.
 * @example
 * ```ts
 * const page = await sessionTimeline(store, { sessionId: 'user-42', limit: 20 });
 * ```
 */
export async function sessionTimeline(store: CheckpointStore, options: SessionTimelineOptions): Promise<TimelinePage<SessionTimelineEntry>> {
  const namespace = options.namespace ?? AGENTS_NAMESPACE;
  const limit = options.limit ?? 100;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new CheckpointValidationError('limit must be an integer from 1 to 1000');
  let before: string | undefined;
  if (options.cursor !== undefined) {
    before = decodeCursor(options.cursor);
    if (before === undefined) throw new CheckpointValidationError(`not a timeline cursor: ${JSON.stringify(options.cursor)}`);
  }
  const prefix = itemPrefix(options.sessionId);
  const page = await checkedRange(store, { namespace, prefix, descending: true, limit: limit + 1, ...(before === undefined ? {} : { before }) });
  const more = page.length > limit;
  const rows = page.slice(0, limit);
  const entries: SessionTimelineEntry[] = [];
  const partsOf = new Map<SessionTimelineEntry, string[]>();
  // Newest first: a row's last position is the position before the newer row's first.
  let nextFirst: number | undefined;
  for (const checked of rows) {
    const raw: CheckpointRow | { id: number; sourceRef: string | null; createdAt: string; payloadJson: string; kind: string } = checked.ok ? checked.row : checked.raw;
    let seq: number;
    try {
      seq = seqOfRef(raw.sourceRef);
    } catch {
      seq = 0;
    }
    let count: number | undefined;
    let error = checked.ok ? undefined : rowError(checked.error);
    let parts: string[] = [];
    if (checked.ok) {
      try {
        const e = rowEntries({ sessionId: options.sessionId, id: raw.id, sourceRef: raw.sourceRef, kind: raw.kind, payloadJson: raw.payloadJson });
        count = e.entries.length;
        parts = (e.parts ?? []).map((_, k) => partRef(options.sessionId, seq, k));
      } catch (err) {
        error = rowError(err);
      }
    }
    const last = count !== undefined ? seq + count - 1 : nextFirst !== undefined ? nextFirst - 1 : seq;
    const entry: SessionTimelineEntry = {
      checkpoint_id: String(last),
      parent_checkpoint_id: seq > 1 ? String(seq - 1) : null,
      checkpoint_ns: '',
      first_position: seq,
      position: last,
      items: count ?? last - seq + 1,
      created_at: String(raw.createdAt),
      bytes: utf8Length(raw.payloadJson),
      row_id: Number(raw.id),
      status: error ? 'failed' : 'verified',
    };
    if (error) entry.error = error;
    if (parts.length > 0) partsOf.set(entry, parts);
    entries.push(entry);
    nextFirst = seq;
  }
  const refs = [...partsOf.values()].flat();
  if (refs.length > 0) {
    const byRef = await checkedByRef(store, namespace, refs);
    for (const [entry, list] of partsOf) {
      for (const ref of list) {
        const c = byRef.get(ref);
        if (!c) continue;
        entry.bytes += utf8Length((c.ok ? c.row : c.raw).payloadJson);
        if (!c.ok && entry.status === 'verified') Object.assign(entry, { status: 'failed', error: rowError(c.error) });
      }
    }
  }
  const last = rows[rows.length - 1];
  const lastRef = last ? (last.ok ? last.row : last.raw).sourceRef : null;
  return { entries, next_cursor: more && lastRef !== null ? encodeCursor(lastRef) : null };
}
