import { CheckpointValidationError, type CheckpointStore } from '@session-checkpoint/core';
import { checkedByRef, checkedRange, decodeCursor, encodeCursor, rowError, utf8Length } from '@session-checkpoint/core/toolkit';
import { AI_SDK_NAMESPACE } from './namespace.js';
import { partRef, saveOfRef, savePrefix } from './refs.js';
import { savePayloadOf, type SavePayload } from './save-rows.js';
import type { ChatRowsPlace, ChatTimelineEntry, TimelinePage } from './types.js';

/** Options of {@link chatTimeline}. */
export interface ChatTimelineOptions extends ChatRowsPlace {
  chatId: string;
  /** Saves per page, 1 to 1000. Default is `100`. */
  limit?: number;
  /** `next_cursor` of the previous page. Default is the newest page. */
  cursor?: string;
}

/** Save rows read per step of the walk that finds a fork's parent. */
const WALK = 100;

/**
 * The parent of each save in `want` (save number to its `keep`): the newest older save whose chat
 * is a prefix of the chat after it, so the chat after the parent plus what the save added is the
 * chat after the save. An append's parent is the save before it; an edit or a regenerate (a save
 * that replaced messages) forks from an older save, the last one before the replaced messages. A
 * chat after save `s` is such a prefix when `count(s)` is at most the `keep` of every save after
 * it up to this one. `null` when no older save is a prefix (a save that kept nothing). Reads older
 * save rows (small, verified) only as far back as a fork reaches; a row it cannot read stops the
 * walk there and the save before is taken as the parent.
 */
async function forkParents(store: CheckpointStore, namespace: string, chatId: string, known: Map<number, SavePayload>, want: Map<number, number>, oldestRef: string | null): Promise<Map<number, number | null>> {
  const out = new Map<number, number | null>();
  let before = oldestRef;
  let exhausted = before === null;
  for (const [save, keep] of want) {
    let minKeep = keep;
    let parent: number | null | undefined;
    for (let s = save - 1; s >= 1; s--) {
      let p = known.get(s);
      while (p === undefined && !exhausted && before !== null) {
        const page = await checkedRange(store, { namespace, prefix: savePrefix(chatId), descending: true, limit: WALK, before });
        for (const c of page) {
          if (!c.ok) continue;
          try {
            const q = savePayloadOf(chatId, c.row);
            known.set(q.save, q);
          } catch {
            // An unreadable row: the walk stops at it (below).
          }
        }
        const last = page[page.length - 1];
        before = last ? (last.ok ? last.row : last.raw).sourceRef : null;
        if (page.length < WALK) exhausted = true;
        p = known.get(s);
      }
      if (p === undefined) {
        parent = save - 1;
        break;
      }
      if (p.count <= minKeep) {
        parent = s;
        break;
      }
      minKeep = Math.min(minKeep, p.keep);
    }
    out.set(save, parent === undefined ? null : parent);
  }
  return out;
}

/**
 * One page of a chat's saves, newest first, without decoding messages: save numbers, what each
 * kept, added and replaced, times, bytes and verification status per save (its part rows
 * included). A row that fails verification is an entry with `status: "failed"`. An edit or a
 * regenerate is a fork: its `parent_checkpoint_id` is the older save it branches from (the last
 * one whose messages it keeps whole), not the save before it, so the saves form a tree like a
 * LangGraph thread's checkpoints.
 *
 * @throws CheckpointValidationError for a bad `limit` or `cursor`.
 * @example
 * ```ts
 * const page = await chatTimeline(store, { chatId: 'chat-1', limit: 20 });
 * page.entries.filter((e) => e.replaced > 0); // the edits and regenerations
 * ```
 */
export async function chatTimeline(store: CheckpointStore, options: ChatTimelineOptions): Promise<TimelinePage<ChatTimelineEntry>> {
  const namespace = options.namespace ?? AI_SDK_NAMESPACE;
  const limit = options.limit ?? 100;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new CheckpointValidationError('limit must be an integer from 1 to 1000');
  let before: string | undefined;
  if (options.cursor !== undefined) {
    before = decodeCursor(options.cursor);
    if (before === undefined) throw new CheckpointValidationError(`not a timeline cursor: ${JSON.stringify(options.cursor)}`);
  }
  // One row more than the page: the older neighbour of the page's last save gives its `replaced`.
  const page = await checkedRange(store, { namespace, prefix: savePrefix(options.chatId), descending: true, limit: limit + 1, ...(before === undefined ? {} : { before }) });
  const payloads = page.map((c) => {
    if (!c.ok) return { error: rowError(c.error) };
    try {
      return { payload: savePayloadOf(options.chatId, c.row) };
    } catch (error) {
      return { error: rowError(error) };
    }
  });
  const entries: ChatTimelineEntry[] = [];
  const parts = new Map<ChatTimelineEntry, string[]>();
  for (let i = 0; i < Math.min(limit, page.length); i++) {
    const checked = page[i];
    if (checked === undefined) continue;
    const raw = checked.ok ? checked.row : checked.raw;
    const decoded = payloads[i] as { payload?: SavePayload; error?: ChatTimelineEntry['error'] };
    let save: number;
    try {
      save = saveOfRef(raw.sourceRef);
    } catch {
      save = 0;
    }
    const p = decoded.payload;
    const older = (payloads[i + 1] as { payload?: SavePayload } | undefined)?.payload;
    const previousCount = older !== undefined && older.save === save - 1 ? older.count : p !== undefined && save === 1 ? 0 : undefined;
    const entry: ChatTimelineEntry = {
      checkpoint_id: String(save),
      parent_checkpoint_id: save > 1 ? String(save - 1) : null,
      checkpoint_ns: '',
      keep: p?.keep ?? 0,
      added: p === undefined ? 0 : p.count - p.keep,
      replaced: p !== undefined && previousCount !== undefined ? previousCount - p.keep : 0,
      count: p?.count ?? 0,
      created_at: String(raw.createdAt),
      bytes: utf8Length(raw.payloadJson),
      row_id: Number(raw.id),
      status: decoded.error ? 'failed' : 'verified',
    };
    if (decoded.error) entry.error = decoded.error;
    if (p?.parts !== undefined) parts.set(entry, p.parts.map((_, k) => partRef(options.chatId, save, k)));
    entries.push(entry);
  }
  // Fork parents: a save that replaced messages branches from an older save.
  const known = new Map<number, SavePayload>();
  for (const d of payloads as { payload?: SavePayload }[]) if (d.payload !== undefined) known.set(d.payload.save, d.payload);
  const forks = new Map<number, number>();
  for (const e of entries) if (e.status === 'verified' && e.replaced > 0) forks.set(Number(e.checkpoint_id), e.keep);
  if (forks.size > 0) {
    const oldest = page[page.length - 1];
    const parents = await forkParents(store, namespace, options.chatId, known, forks, oldest ? (oldest.ok ? oldest.row : oldest.raw).sourceRef : null);
    for (const e of entries) {
      const parent = parents.get(Number(e.checkpoint_id));
      if (parent !== undefined) e.parent_checkpoint_id = parent === null ? null : String(parent);
    }
  }
  const refs = [...parts.values()].flat();
  if (refs.length > 0) {
    const byRef = await checkedByRef(store, namespace, refs);
    for (const [entry, list] of parts) {
      for (const ref of list) {
        const c = byRef.get(ref);
        if (!c) {
          if (entry.status === 'verified') Object.assign(entry, { status: 'failed', error: { code: 'INTEGRITY', message: `part row ${ref} is missing` } });
          continue;
        }
        entry.bytes += utf8Length((c.ok ? c.row : c.raw).payloadJson);
        if (!c.ok && entry.status === 'verified') Object.assign(entry, { status: 'failed', error: rowError(c.error) });
      }
    }
  }
  const more = page.length > limit;
  const last = page[Math.min(limit, page.length) - 1];
  const lastRef = last ? (last.ok ? last.row : last.raw).sourceRef : null;
  return { entries, next_cursor: more && lastRef !== null ? encodeCursor(lastRef) : null };
}
