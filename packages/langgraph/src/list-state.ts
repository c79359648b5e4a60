import { TwoGenerationCache } from '@session-checkpoint/core/internal';
import { sameJson } from './same-json.js';
import { cloneJson } from './stored-value.js';

/*
 * What the saver remembers of a list value it stored (put) or handed out (getTuple), so that the
 * next put can tell whether the new value extends it: the JSON of each item in objects of the
 * saver's own, which nothing the caller does can change. LangGraph's append reducers
 * (messagesStateReducer, `(a, b) => a.concat(b)`) build the next value from the very item objects
 * of the previous one, but nodes also edit those objects in place (a redaction, a tool result
 * filled in) and return them unchanged in identity: so an item is unchanged only when its JSON
 * is, never because it is the same object. This module is the one place where that check is made.
 * The JSON shares its strings with the caller's objects (strings cannot change): an unchanged
 * message's text is then the very same string, and comparing it costs nothing per byte.
 */

/** Where a list's last piece lives, and the snapshot rule's counts. */
interface ListPlace {
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
 * A list value as a read hands it out (tuple-reader.ts): the items given to the caller and the
 * parsed JSON of the row. {@link ListStates.set} turns it into a {@link KnownList} at once, before
 * the caller can touch the items.
 */
export interface ListState extends ListPlace {
  /** The items handed out (not kept: the caller may edit them). */
  items: readonly unknown[];
  /** The stored JSON of the items, by position, when known. */
  json: readonly unknown[] | undefined;
}

/** A list value as the saver keeps it: where it lives and each item's JSON. */
export interface KnownList extends ListPlace {
  /** Each item's JSON as stored, by position, in objects and arrays no caller holds. */
  stored: readonly unknown[];
}

/**
 * The number of leading items `items` shares with `previous`, when every item of `previous` is
 * there unchanged (an extension, possibly by nothing); else `undefined` (shorter, or an item
 * edited, removed or moved). Items compare as JSON, whatever the order of their keys.
 *
 * @example
 * ```ts
 * extensionOf([{ a: 1 }, 2], { stored: [{ a: 1 }], ... }); // 1
 * extensionOf([{ a: 9 }, 2], { stored: [{ a: 1 }], ... }); // undefined (item 0 edited)
 * ```
 */
export function extensionOf(items: readonly unknown[], previous: KnownList): number | undefined {
  const old = previous.stored;
  const n = old.length;
  if (items.length < n) return undefined;
  for (let i = 0; i < n; i++) if (!sameJson(items[i], old[i])) return undefined;
  return n;
}

/** The stored JSON of a list handed out by a read, copied (the read may have handed it out itself). */
function known(state: ListState | KnownList): KnownList | undefined {
  if ('stored' in state) return state;
  const { items: _items, json, ...place } = state;
  if (json === undefined) return undefined;
  return { ...place, stored: json.map(cloneJson) };
}

/** The serialized bytes of a checkpoint's list states: each list's snapshot and the pieces since. */
function bytesOf(lists: ReadonlyMap<string, KnownList>): number {
  let bytes = 0;
  for (const state of lists.values()) bytes += state.s + state.d;
  return bytes;
}

/**
 * List values last stored or handed out, per checkpoint key: what the next put may extend. Keeps
 * JSON of its own, never the caller's objects. Bounded twice: at most `maxEntries` checkpoints,
 * and at most `maxBytes` of their lists counted as serialized JSON (a long chat's list is
 * megabytes). Both bounds are one weight: a checkpoint weighs its bytes, and at least
 * `maxBytes / maxEntries`. The count is conservative: successive states of one list share most
 * of their item objects, so the memory held is usually well below the bytes counted. A
 * checkpoint whose lists weigh more than half of `maxBytes` is not kept (its next put stores the
 * lists in full, a new snapshot). A forgotten state costs bytes in the store, never correctness.
 *
 * @example
 * ```ts
 * const lists = new ListStates(256, 64 * 1024 * 1024);
 * lists.set(key, new Map([['messages', state]]));
 * lists.get(key)?.get('messages')?.stored;
 * ```
 */
export class ListStates {
  readonly #cache: TwoGenerationCache<string, Map<string, KnownList>>;

  /**
   * @param maxEntries checkpoints kept at most.
   * @param maxBytes serialized bytes of their lists kept at most.
   */
  constructor(maxEntries: number, maxBytes: number) {
    // With maxBytes 0 nothing is kept: every checkpoint weighs at least 1.
    const floor = Math.max(maxBytes / maxEntries, 1);
    this.#cache = new TwoGenerationCache(maxBytes, (lists) => Math.max(bytesOf(lists), floor));
  }

  /** Checkpoints kept now (for tests and diagnostics). */
  get size(): number {
    return this.#cache.size;
  }

  /**
   * The weight kept now, at most `maxBytes`: each checkpoint's list bytes, counted as at least
   * `maxBytes / maxEntries` (for tests and diagnostics).
   */
  get weight(): number {
    return this.#cache.weight;
  }

  /** The lists of checkpoint `key`, if remembered. */
  get(key: string): Map<string, KnownList> | undefined {
    return this.#cache.get(key);
  }

  /** Remembers the lists of checkpoint `key`, copying the JSON of handed-out lists now. */
  set(key: string, lists: ReadonlyMap<string, ListState | KnownList>): void {
    const out = new Map<string, KnownList>();
    for (const [channel, state] of lists) {
      const k = known(state);
      if (k !== undefined) out.set(channel, k);
    }
    this.#cache.set(key, out);
  }

  /** Forgets checkpoint `key`. */
  delete(key: string): void {
    this.#cache.delete(key);
  }

  /** Forgets every checkpoint whose key `drop` accepts. */
  deleteKeys(drop: (key: string) => boolean): void {
    this.#cache.deleteKeys(drop);
  }
}
