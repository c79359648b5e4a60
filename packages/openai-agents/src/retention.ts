import type { AgentInputItem } from '@openai/agents-core';
import type { CheckpointStore } from '@session-checkpoint/core';
import { endOf, itemRowsAscending, type ItemRow, type SessionPlace } from './item-rows.js';
import { LostRace } from './race.js';
import { itemPrefix, seqOfRef } from './source-refs.js';

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
 * without its call): when a deleted call's result lies past the nominal cut, the cut moves past that
 * result, so a few more than needed may go. A call with no result anywhere does not hold the cut.
 * `rewrite` stores a row's kept items under its new position.
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
  const nominal = end - maxItems;
  /** Position of the first kept item: everything before it goes. */
  let cut = nominal;
  /** Calls among the doomed items whose results have not been seen yet. */
  const doomedOpen = new Set<string>();
  /** Calls opened between the last cut and the item being looked at. */
  let pendingOpen = new Set<string>();
  const seen: ItemRow[] = [];
  scan: for await (const row of itemRowsAscending(store, place, { pageSize: SCAN_PAGE })) {
    seen.push(row);
    for (const [offset, item] of row.items.entries()) {
      const position = row.seq + offset;
      if (position >= cut && doomedOpen.size === 0) break scan;
      const call = callOf(item);
      if (position < nominal) {
        if (call?.opens) doomedOpen.add(call.id);
        else if (call) doomedOpen.delete(call.id);
        continue;
      }
      if (call?.opens) pendingOpen.add(call.id);
      else if (call && doomedOpen.delete(call.id)) {
        // A doomed call's result: it and everything before it go; calls opened meanwhile are doomed now.
        cut = position + 1;
        for (const id of pendingOpen) doomedOpen.add(id);
        pendingOpen = new Set();
      } else if (call) pendingOpen.delete(call.id);
    }
  }
  const doomed = seen.filter((row) => row.seq < cut);
  if (doomed.length === 0) return;
  const deleted = await store.adapter.deleteRows(doomed.map((row) => row.row.id), place.namespace);
  if (deleted.length !== doomed.length) throw new LostRace(`session ${place.sessionId} changed during the write; retrying`);
  const straddling = doomed[doomed.length - 1];
  if (straddling && endOf(straddling) > cut) await rewrite(cut, straddling.items.slice(cut - straddling.seq));
}
