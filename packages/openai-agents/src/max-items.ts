import type { AgentInputItem } from '@openai/agents-core';
import type { CheckpointStore } from '@session-checkpoint/core';
import { endOf, itemRowsAscending, rowIds, type ItemRow, type SessionPlace } from './format/item-rows.js';
import { deleteOrLoseRace } from './race.js';
import { itemPrefix, seqOfRef } from './format/source-refs.js';

/** Item types that open a tool call and the types that close one; both carry the call's id. */
const CALL_TYPES = new Set(['function_call', 'computer_call', 'shell_call', 'apply_patch_call', 'tool_search_call']);
const RESULT_TYPES = new Set(['function_call_result', 'computer_call_result', 'shell_call_output', 'apply_patch_call_output', 'tool_search_output']);

/** The call id an item opens or closes, with which; `undefined` for any other item. */
function callOf(item: AgentInputItem): { id: string; opens: boolean } | undefined {
  const record = item as { type?: unknown; callId?: unknown; call_id?: unknown };
  const id = typeof record.callId === 'string' ? record.callId : typeof record.call_id === 'string' ? record.call_id : undefined;
  if (id === undefined || typeof record.type !== 'string') return undefined;
  if (CALL_TYPES.has(record.type)) return { id, opens: true };
  if (RESULT_TYPES.has(record.type)) return { id, opens: false };
  return undefined;
}

/** Rows per read while looking for the cut: a cut usually moves a few items past the nominal one. */
const SCAN_PAGE = 16;

/**
 * Deletes the oldest items of a session so that at most `maxItems` remain, inside the caller's
 * transaction. Item positions are dense (appends take the next ones, rewrites reuse theirs,
 * retention only ever deletes a prefix), so the count is the end of the newest row minus the seq
 * of the oldest: one extra one-row read per write while under the cap. Rows wholly before the cut
 * are deleted; a row the cut falls inside is rewritten with its kept items, under the position of
 * the first. The cut never separates a tool call from its result (the model API refuses a result
 * without its call, and a call without its result): when a deleted call's result lies past the
 * nominal cut, the cut moves past that result, so a few more than needed may go; when a call before
 * the cut has no result yet (parallel calls answered out of order, a shell call whose output comes
 * in a later batch, a call waiting for approval), the cut moves back before that call, so more than
 * `maxItems` stay until it is answered. `rewrite` stores a row's kept items under its new position.
 */
export async function trimToMaxItems(
  store: CheckpointStore,
  place: SessionPlace,
  end: number,
  maxItems: number,
  rewrite: (seq: number, items: AgentInputItem[]) => Promise<void>,
): Promise<void> {
  const [oldest] = await store.listBySourceRefPrefix({ namespace: place.namespace, prefix: itemPrefix(place.sessionId), limit: 1 });
  if (!oldest || end - seqOfRef(oldest.sourceRef) <= maxItems) return;
  /** Position of the first kept item: everything before it goes. */
  let cut = end - maxItems;
  /** Calls seen without their result yet: call id to position. */
  const open = new Map<string, number>();
  /** Calls seen with their result: [call position, result position]. */
  const pairs: [number, number][] = [];
  const openBefore = (position: number): boolean => {
    for (const at of open.values()) if (at < position) return true;
    return false;
  };
  const seen: ItemRow[] = [];
  let readAll = true;
  scan: for await (const row of itemRowsAscending(store, place, { pageSize: SCAN_PAGE })) {
    seen.push(row);
    for (const [offset, item] of row.items.entries()) {
      const position = row.seq + offset;
      if (position >= cut && !openBefore(cut)) {
        readAll = false;
        break scan;
      }
      const call = callOf(item);
      if (call?.opens) {
        if (!open.has(call.id)) open.set(call.id, position);
      } else if (call) {
        const at = open.get(call.id);
        if (at === undefined) continue;
        open.delete(call.id);
        pairs.push([at, position]);
        // A doomed call's result: it and everything before it go.
        if (at < cut && position >= cut) cut = position + 1;
      }
    }
  }
  if (readAll) {
    // The whole history was read and calls before the cut are still unanswered: keep them, and
    // move back before any pair the new cut would split, until nothing moves.
    for (let moved = true; moved; ) {
      moved = false;
      for (const at of open.values()) if (at < cut) [cut, moved] = [at, true];
      for (const [at, result] of pairs) if (at < cut && result >= cut) [cut, moved] = [at, true];
    }
  }
  const doomed = seen.filter((row) => row.seq < cut);
  if (doomed.length === 0) return;
  await deleteOrLoseRace(store, place, rowIds(doomed), 'write');
  const straddling = doomed[doomed.length - 1];
  if (straddling && endOf(straddling) > cut) await rewrite(cut, straddling.items.slice(cut - straddling.seq));
}
