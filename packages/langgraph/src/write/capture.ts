import type { ChannelVersions, Checkpoint, CheckpointMetadata, SerializerProtocol } from '@langchain/langgraph-checkpoint';
import type { JsonValue } from '@session-checkpoint/core';
import { cloneJson, sameJson } from '../format/json.js';
import type { StoredValue } from '../format/payloads.js';
import { isStockJsonPlus, parseSerialized, plainJsonOf, storeValue } from '../format/serde.js';
import { sameAsKept } from './kept-json.js';
import { sameMessageAsKept } from './kept-message.js';

/*
 * The first step of a put: every channel value it stores is read at the moment of the call, as
 * MemorySaver does (LangGraph runs its next step while the put is in flight, and nodes edit
 * messages in place). What comes out is the JSON the serializer writes, in objects and arrays of
 * the saver's own: nothing aliases the caller's objects except strings, which cannot change.
 *
 * This is also the one place where the content check of docs/decisions/0014 is made: a list's
 * items are compared, by content, with the JSON the saver kept of the parent's list, and the
 * leading items that are equal are counted (`same`). An equal item is the kept object itself, not
 * a new copy, so an unchanged list allocates nothing per item and the next put compares by
 * identity. Identity of the caller's objects proves nothing (an object edited in place is the same
 * object); identity of the saver's own kept JSON does.
 */

/** What a put reads at its call: the checkpoint without its values, the metadata, and the channel values it stores. */
export interface PutValues {
  checkpoint: StoredValue;
  metadata: StoredValue;
  /** The values captured at the call: every changed one, and the small unchanged ones (`inlineCarriedBytes`). */
  captured: Map<string, Captured>;
  /** True when the checkpoint has a value for `channel`. */
  has(channel: string): boolean;
  /** The value of `channel`: as captured, or, when not captured (an unchanged value the parent row no longer holds), read now. */
  of(channel: string): Promise<Captured>;
}

/**
 * Reads everything a put may store, before its first await: the checkpoint and metadata, each
 * changed value (a list compared with `previousOf(channel)`, the JSON kept of the parent's), and
 * the unchanged values small enough to repeat in the row (counted up to `inlineBytes`).
 */
export async function capturePut(
  serde: SerializerProtocol,
  checkpoint: Checkpoint,
  metadata: CheckpointMetadata,
  newVersions: ChannelVersions,
  previousOf: (channel: string) => readonly unknown[] | undefined,
  inlineBytes: number,
): Promise<PutValues> {
  const { channel_values: channelValues, ...rest } = checkpoint;
  const cv = channelValues as Record<string, unknown>;
  const pending = new Map<string, Promise<Captured>>();
  let small = 0;
  for (const channel of new Set([...Object.keys(checkpoint.channel_versions), ...Object.keys(newVersions)])) {
    if (!Object.hasOwn(cv, channel)) continue;
    const isNew = Object.hasOwn(newVersions, channel);
    const size = isNew || small > inlineBytes ? undefined : jsonSizeWithin(cv[channel], inlineBytes - small);
    if (!isNew && size === undefined) small = Infinity;
    else if (size !== undefined) small += size;
    if (isNew || size !== undefined) pending.set(channel, captureValue(serde, cv[channel], `channel '${channel}'`, isNew ? previousOf(channel) : undefined));
  }
  const captured = new Map<string, Captured>();
  // One Promise.all, created before any await: a value refused is this put's error, never an unhandled rejection.
  const [stored, meta] = await Promise.all([
    storeValue(serde, rest, 'checkpoint'),
    storeValue(serde, metadata, 'metadata'),
    ...[...pending].map(async ([channel, value]) => void captured.set(channel, await value)),
  ]);
  return {
    checkpoint: stored,
    metadata: meta,
    captured,
    has: (channel) => Object.hasOwn(cv, channel),
    of: async (channel) => captured.get(channel) ?? captureValue(serde, cv[channel], `channel '${channel}'`),
  };
}

/** A channel value as captured: a list as the JSON of each item, anything else as stored. */
export type Captured = CapturedList | { stored: StoredValue };

/** A value the serializer writes as a JSON array, item by item. */
export interface CapturedList {
  /** The serializer's type tag (`"json"`). */
  t: string;
  /** Each item's JSON, as the serializer writes it, in objects and arrays of the saver's own. */
  items: JsonValue[];
  /** The kept list the items were compared with, if any, */
  against?: readonly unknown[];
  /** and how many leading items of it are there unchanged, by content. */
  same: number;
}

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
 */
export async function captureValue(serde: SerializerProtocol, value: unknown, where: string, previous?: readonly unknown[]): Promise<Captured> {
  // Async, so that a refusal is a rejected promise, never a throw before the caller holds it.
  if (!Array.isArray(value)) return { stored: await storeValue(serde, value, where) };
  if (!isStockJsonPlus(serde)) {
    const stored = await storeValue(serde, value, where);
    return stored.t === 'json' && Array.isArray(stored.j) ? listOf(stored.t, stored.j, previous) : { stored };
  }
  const items = new Array<JsonValue>(value.length);
  let later: Promise<void>[] | undefined;
  for (let i = 0; i < value.length; i++) {
    // Compared now, before any await: the caller's objects are read at the call only. A LangChain
    // message is compared first without its toJSON() (docs/decisions/0050); anything else, in captureItem.
    const old = previous !== undefined && i < previous.length ? previous[i] : undefined;
    if (old !== undefined && sameMessageAsKept(value[i], old)) items[i] = old as JsonValue;
    else later = captureItem(serde, value[i], old, where, i, items, later);
  }
  if (later !== undefined) await Promise.all(later);
  return listOf('json', items, previous);
}

/**
 * Item `i` of a list that {@link sameMessageAsKept} did not find equal to `old` (its kept item, if
 * any): compared with its toJSON(), else walked and copied into `items[i]`, else serialised (the
 * promise added to `later`, which is returned). A function of its own so that captureValue, run
 * once per list with this path taken by a few items, stays small: on Node 24 V8 then leaves it to
 * Maglev instead of compiling it, with all this inlined, by TurboFan (docs/decisions/0059).
 */
function captureItem(serde: SerializerProtocol, item: unknown, old: unknown, where: string, i: number, items: JsonValue[], later: Promise<void>[] | undefined): Promise<void>[] | undefined {
  // If the message check cannot tell, compared with its toJSON().
  if (old !== undefined && sameAsKept(shownJson(item, i), old)) {
    items[i] = old as JsonValue;
    return later;
  }
  // Not the kept item: walked (refusing what the serializer would mangle) and copied.
  const plain = plainJsonOf(item, `${where}[${i}]`, String(i));
  if (plain !== undefined) {
    items[i] = cloneJson(plain.json) as JsonValue;
    return later;
  }
  // The serializer's own form (a Map, a Uint8Array, undefined...): dumpsTyped serialises before
  // its first await, so this too is read now.
  (later ??= []).push(
    serde.dumpsTyped([item]).then(([, bytes]) => {
      items[i] = (parseSerialized(bytes, where) as JsonValue[])[0] as JsonValue;
    }),
  );
  return later;
}

/** What JSON serialisation writes for a list item at the top: its `toJSON(key)` (a message's), or the item; a Date is not shown (its check is the walk's). */
function shownJson(item: unknown, i: number): unknown {
  if (typeof item !== 'object' || item === null || item instanceof Date) return item;
  const toJSON = (item as { toJSON?: unknown }).toJSON;
  return typeof toJSON === 'function' ? toJSON.call(item, String(i)) : item;
}

/** A captured list, its leading items compared with `previous` (kept items compare by identity). */
function listOf(t: string, items: JsonValue[], previous: readonly unknown[] | undefined): CapturedList {
  if (previous === undefined) return { t, items, same: 0 };
  let same = 0;
  while (same < previous.length && same < items.length && sameJson(items[same], previous[same])) same++;
  return { t, items, against: previous, same };
}

/** True for a captured list. */
export function isList(captured: Captured): captured is CapturedList {
  return 'items' in captured;
}

/**
 * About the length of `value` as compact JSON when it is plain JSON data of at most `budget`, else
 * `undefined`: an estimate for `inlineCarriedBytes` (strings count their UTF-16 length plus
 * quotes) that stops once the budget is spent, so a 1 MB list costs no serialisation to be told large.
 */
export function jsonSizeWithin(value: unknown, budget: number): number | undefined {
  const size = walk(value, budget);
  return size <= budget ? size : undefined;
}

/** The size so far, or `Infinity` once over `left` or on a value that is not plain JSON. */
function walk(value: unknown, left: number): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : Infinity;
  if (typeof value === 'boolean') return value ? 4 : 5;
  if (value === null) return 4;
  if (typeof value !== 'object') return Infinity;
  const proto: unknown = Object.getPrototypeOf(value);
  const keys = Array.isArray(value) ? undefined : Object.keys(value);
  if (keys !== undefined && proto !== Object.prototype && proto !== null) return Infinity;
  const n = keys === undefined ? (value as unknown[]).length : keys.length;
  let size = 2;
  for (let i = 0; i < n; i++) {
    const key = keys?.[i];
    // A comma before every member but the first, and "key": before an object's.
    const head = (i > 0 ? 1 : 0) + (key === undefined ? 0 : key.length + 3);
    size += head + walk((value as Record<string | number, unknown>)[key ?? i], left - size - head);
    if (size > left) return Infinity;
  }
  return size;
}
