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

/**
 * Deletes the oldest items of a session so that at most `maxItems` remain, inside the caller's
 * transaction. Items hold dense seqs (appends take the next one), so the count is the newest seq
 * minus the oldest, plus one: one extra one-row read per write while under the cap. The cut never
 * separates a tool call from its result: a result whose call is deleted is deleted with it (a
 * result alone would be refused by the model API). Returns the ids deleted.
 */
export async function trimToMaxItems(store: CheckpointStore, place: SessionPlace, newest: number, maxItems: number): Promise<number[]> {
  const [oldest] = await store.listBySourceRefPrefix({ namespace: place.namespace, prefix: itemPrefix(place.sessionId), limit: 1 });
  if (!oldest || newest - seqOfRef(oldest.sourceRef) + 1 <= maxItems) return [];
  const cutRef = itemRef(place.sessionId, newest - maxItems + 1);
  const doomed: StoredRow[] = [];
  const open = new Set<string>();
  for await (const row of itemRowsAscending(store, place, { beforeRef: cutRef })) {
    doomed.push(row);
    const call = callOf(decodeItem(row.payload));
    if (call?.opens) open.add(call.id);
    else if (call) open.delete(call.id);
  }
  if (open.size > 0) {
    // Results of deleted calls come after the cut; they go too. Reading stops once all are found.
    for await (const row of itemRowsAscending(store, place, { afterRef: itemRef(place.sessionId, newest - maxItems) })) {
      const call = callOf(decodeItem(row.payload));
      if (call && !call.opens && open.delete(call.id)) doomed.push(row);
      if (open.size === 0) break;
    }
  }
  const ids = doomed.map((row) => row.id);
  return ids.length === 0 ? [] : store.adapter.deleteRows(ids, place.namespace);
}
