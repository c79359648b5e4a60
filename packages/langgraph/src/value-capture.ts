import type { SerializerProtocol } from '@langchain/langgraph-checkpoint';
import { CheckpointValidationError, utf8ByteLength, type JsonValue } from '@session-checkpoint/core';
import { isStockJsonPlus, storeValue, type StoredValue } from './stored-value.js';
import { plainJsonOf } from './value-guard.js';

/*
 * The first step of a put: every channel value it stores is serialised at the moment of the call,
 * as MemorySaver does. LangGraph does not wait for a put before running the next step, and its
 * nodes edit messages in place, so anything read from the caller's objects later (or kept from
 * them) could hold a later edit. What comes out is text and freshly parsed JSON: nothing aliases
 * the caller's objects. A list keeps the JSON text of each item, so that the next put can tell by
 * content which leading items are unchanged (see list-state.ts).
 */

/** A channel value as captured: a list as the JSON text of each item, anything else as stored. */
export type Captured = CapturedList | { stored: StoredValue };

/** A value the serializer writes as a JSON array, item by item. */
export interface CapturedList {
  /** The serializer's type tag (`"json"`). */
  t: string;
  /** Each item's JSON text, exactly as it appears in the serialised list. */
  texts: readonly string[];
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Serialises `value` now (everything is read from it before this returns its promise). A list the
 * stock serializer writes is captured item by item: plain items and items whose `toJSON()` is
 * plain (LangChain messages) by `JSON.stringify` directly, others through the serializer, as a list
 * of one. With another serializer a list is serialised whole and its items' texts taken from the
 * result.
 *
 * @throws CheckpointValidationError naming `where` for a BigInt, NaN, Infinity, invalid Date or cycle.
 * @example
 * ```ts
 * const captured = await captureValue(serde, [new HumanMessage('hi')], "channel 'messages'");
 * // { t: 'json', texts: ['{"lc":1,"type":"constructor",...}'] }
 * ```
 */
export function captureValue(serde: SerializerProtocol, value: unknown, where: string): Promise<Captured> {
  if (!Array.isArray(value)) return storeValue(serde, value, where).then((stored) => ({ stored }));
  if (!isStockJsonPlus(serde)) return storeValue(serde, value, where).then((stored) => listOf(stored) ?? { stored });
  const texts = new Array<string>(value.length);
  let later: Promise<void>[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const plain = plainJsonOf(value[i], `${where}[${i}]`, String(i));
    if (plain !== undefined) {
      texts[i] = JSON.stringify(plain.json);
      continue;
    }
    // The serializer's own form (a Map, a Uint8Array, undefined...): as the only item of a list,
    // it is written exactly as inside the whole list. dumpsTyped serialises before its first await.
    (later ??= []).push(
      serde.dumpsTyped([value[i]]).then(([, bytes]) => {
        texts[i] = decoder.decode(bytes).slice(1, -1);
      }),
    );
  }
  if (later === undefined) return Promise.resolve({ t: 'json', texts });
  return Promise.all(later).then(() => ({ t: 'json', texts }));
}

/** A stored JSON array as item texts, or `undefined` for anything else. */
function listOf(stored: StoredValue): CapturedList | undefined {
  if (stored.t !== 'json' || !Array.isArray(stored.j)) return undefined;
  return { t: stored.t, texts: stored.j.map((item) => JSON.stringify(item)) };
}

/** True for a captured list. */
export function isList(captured: Captured): captured is CapturedList {
  return 'texts' in captured;
}

/**
 * Item texts as a stored JSON array (parsed: fresh objects, shared with nothing) and its UTF-8
 * size.
 *
 * @example
 * ```ts
 * jsonArray(['1', '{"a":2}']); // { j: [1, { a: 2 }], bytes: 11 }
 * ```
 */
export function jsonArray(texts: readonly string[]): { j: JsonValue[]; bytes: number } {
  const text = `[${texts.join(',')}]`;
  try {
    return { j: JSON.parse(text) as JsonValue[], bytes: utf8ByteLength(text) };
  } catch (error) {
    throw new CheckpointValidationError('LangGraph list value did not serialize to JSON', { cause: error });
  }
}
