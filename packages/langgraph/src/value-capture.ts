import type { SerializerProtocol } from '@langchain/langgraph-checkpoint';
import { CheckpointValidationError, type JsonValue } from '@session-checkpoint/core';
import { sameJson } from './same-json.js';
import { cloneJson, isStockJsonPlus, storeValue, type StoredValue } from './stored-value.js';
import { plainJsonOf } from './value-guard.js';

/*
 * The first step of a put: every channel value it stores is read at the moment of the call, as
 * MemorySaver does. LangGraph does not wait for a put before running the next step, and its nodes
 * edit messages in place, so anything read from the caller's objects later (or kept from them)
 * could hold a later edit. What comes out is the JSON the serializer writes, in objects and arrays
 * of the saver's own: nothing aliases the caller's objects except strings, which cannot change. A
 * list keeps that JSON item by item, so that the next put can tell by content which leading items
 * are unchanged (see list-state.ts); sharing the strings makes that check cost per node, not per
 * byte, when nothing changed. An item whose JSON equals the one at its position in the parent's
 * list (by content, as list-state.ts compares) is that very object, not a new copy: the next step's
 * check is then an identity, and an unchanged list allocates nothing per item.
 */

/** A channel value as captured: a list as the JSON of each item, anything else as stored. */
export type Captured = CapturedList | { stored: StoredValue };

/** A value the serializer writes as a JSON array, item by item. */
export interface CapturedList {
  /** The serializer's type tag (`"json"`). */
  t: string;
  /** Each item's JSON, as the serializer writes it, in objects and arrays of the saver's own. */
  items: JsonValue[];
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads `value` now (everything is read from it before this returns its promise). A list the
 * stock serializer writes is captured item by item: plain items and items whose `toJSON()` is
 * plain (LangChain messages) are copied as JSON directly, others go through the serializer as a
 * list of one (written exactly as inside the whole list). With another serializer a list is
 * serialised whole and its items taken from the result. `previous`, the JSON the saver keeps of
 * the parent's list (objects no caller holds), gives the item at each position when its JSON is
 * equal to the item's now: equal content, so the result is the same as a copy.
 *
 * @throws CheckpointValidationError naming `where` for a BigInt, NaN, Infinity, invalid Date or cycle.
 * @example
 * ```ts
 * const captured = await captureValue(serde, [new HumanMessage('hi')], "channel 'messages'");
 * // { t: 'json', items: [{ lc: 1, type: 'constructor', id: [...], kwargs: { content: 'hi', ... } }] }
 * ```
 */
export async function captureValue(serde: SerializerProtocol, value: unknown, where: string, previous?: readonly unknown[]): Promise<Captured> {
  // Async, so that a refusal is a rejected promise, never a throw before the caller holds it.
  if (!Array.isArray(value)) return { stored: await storeValue(serde, value, where) };
  if (!isStockJsonPlus(serde)) {
    const stored = await storeValue(serde, value, where);
    return listOf(stored) ?? { stored };
  }
  const items = new Array<JsonValue>(value.length);
  let later: Promise<void>[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const plain = plainJsonOf(value[i], `${where}[${i}]`, String(i));
    if (plain !== undefined) {
      const old = previous !== undefined && i < previous.length ? previous[i] : undefined;
      // Compared now, before any await: the caller's objects are read at the call only.
      items[i] = (old !== undefined && sameJson(plain.json, old) ? old : cloneJson(plain.json)) as JsonValue;
      continue;
    }
    // The serializer's own form (a Map, a Uint8Array, undefined...): dumpsTyped serialises before
    // its first await, so this too is read now.
    (later ??= []).push(
      serde.dumpsTyped([value[i]]).then(([, bytes]) => {
        items[i] = parsed(decoder.decode(bytes), where)[0] as JsonValue;
      }),
    );
  }
  if (later !== undefined) await Promise.all(later);
  return { t: 'json', items };
}

function parsed(text: string, where: string): unknown[] {
  try {
    return JSON.parse(text) as unknown[];
  } catch (error) {
    throw new CheckpointValidationError(`LangGraph value at ${where} did not serialize to JSON`, { cause: error });
  }
}

/** A stored JSON array as captured items (already parsed for this call alone), or `undefined`. */
function listOf(stored: StoredValue): CapturedList | undefined {
  if (stored.t !== 'json' || !Array.isArray(stored.j)) return undefined;
  return { t: stored.t, items: stored.j };
}

/** True for a captured list. */
export function isList(captured: Captured): captured is CapturedList {
  return 'items' in captured;
}
