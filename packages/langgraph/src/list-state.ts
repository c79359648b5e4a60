import type { SerializerProtocol } from '@langchain/langgraph-checkpoint';
import { sameJson } from './same-json.js';
import { storeValue } from './stored-value.js';

/*
 * What the saver remembers of a list value it stored (put) or handed out (getTuple), so that the
 * next put can tell, without serialising the whole list again, whether the new value extends it:
 * LangGraph's append reducers (messagesStateReducer, `(a, b) => a.concat(b)`) build the next value
 * from the very item objects of the previous one, so a leading item is first compared by
 * identity, and only when that fails, by its serialized JSON.
 */

/** A list value as last stored or handed out, and where its last piece lives. */
export interface ListState {
  /** The value's items (the references, copied: the caller's array may change later). */
  items: readonly unknown[];
  /** Their serialized JSON, by position, when known. */
  json: readonly unknown[] | undefined;
  /** Checkpoint whose row holds the value (in full or as its last piece). */
  holder: string;
  /** That row's payload SHA-256; `undefined` until the row is written. */
  sha: string | undefined;
  /** Checkpoint whose row holds the snapshot the chain starts from. */
  since: string;
  /** Serialized bytes of the pieces since the snapshot. */
  d: number;
  /** Serialized bytes of the snapshot. */
  s: number;
  /** Pieces since the snapshot. */
  c: number;
}

/**
 * The items `value` appends to `previous`, or `undefined` when it is not provably an extension:
 * shorter, or a leading item that is neither the same object nor serializes to the same JSON
 * (an edit, a removal, a reorder).
 */
export async function appendedItems(serde: SerializerProtocol, value: readonly unknown[], previous: ListState, where: string): Promise<unknown[] | undefined> {
  const n = previous.items.length;
  if (value.length < n) return undefined;
  for (let i = 0; i < n; i++) {
    if (value[i] === previous.items[i]) continue;
    const json = previous.json?.[i];
    if (json === undefined) return undefined;
    const stored = await storeValue(serde, [value[i]], where);
    if (stored.t !== 'json' || !Array.isArray(stored.j) || !sameJson(stored.j[0], json)) return undefined;
  }
  return value.slice(n);
}
