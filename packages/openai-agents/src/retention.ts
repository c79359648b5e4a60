import type { AgentInputItem } from '@openai/agents-core';
import type { Checkpoint as StoredRow, CheckpointStore } from '@session-checkpoint/core';
import { decodeItem } from './item-codec.js';
import { itemRowsAscending, type SessionPlace } from './item-rows.js';
import { itemPrefix, itemRef, seqOfRef } from './source-refs.js';

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
const SCAN_PAGE = 32;

/**
 * Deletes the oldest items of a session so that at most `maxItems` remain, inside the caller's
 * transaction. Item seqs are dense (appends take the next one, rewrites reuse theirs, retention
 * only ever deletes a prefix), so the count is the newest seq minus the oldest, plus one: one
 * extra one-row read per write while under the cap. The cut never separates a tool call from its
 * result (the model API refuses a result without its call): when a deleted call's result lies past
 * the nominal cut, the cut moves past that result, so a few more than needed may go. A call with
 * no result anywhere does not hold the cut. Returns the ids deleted.
 */
export async function trimToMaxItems(store: CheckpointStore, place: SessionPlace, newest: number, maxItems: number): Promise<number[]> {
  const [oldest] = await store.listBySourceRefPrefix({ namespace: place.namespace, prefix: itemPrefix(place.sessionId), limit: 1 });
  if (!oldest || newest - seqOfRef(oldest.sourceRef) + 1 <= maxItems) return [];
  const nominal = newest - maxItems + 1;
  const doomed: StoredRow[] = [];
  /** Calls among the doomed rows whose results have not been seen yet. */
  const doomedOpen = new Set<string>();
  /** Rows past the nominal cut that go only if a doomed call's result comes after them. */
  let pending: StoredRow[] = [];
  let pendingOpen = new Set<string>();
  for await (const row of itemRowsAscending(store, place, { pageSize: SCAN_PAGE })) {
    const seq = seqOfRef(row.sourceRef);
    if (seq >= nominal && doomedOpen.size === 0) break;
    const call = callOf(decodeItem(row.payload));
    if (seq < nominal) {
      doomed.push(row);
      if (call?.opens) doomedOpen.add(call.id);
      else if (call) doomedOpen.delete(call.id);
      continue;
    }
    pending.push(row);
    if (call?.opens) pendingOpen.add(call.id);
    else if (call && doomedOpen.delete(call.id)) {
      // A doomed call's result: it and everything before it go; calls opened meanwhile are doomed now.
      doomed.push(...pending);
      for (const id of pendingOpen) doomedOpen.add(id);
      pending = [];
      pendingOpen = new Set();
    } else if (call) pendingOpen.delete(call.id);
  }
  const ids = doomed.map((row) => row.id);
  return ids.length === 0 ? [] : store.adapter.deleteRows(ids, place.namespace);
}
