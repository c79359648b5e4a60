import type { AgentInputItem } from '@openai/agents-core';
import { CheckpointIntegrityError, CheckpointValidationError, utf8ByteLength } from '@session-checkpoint/core';
import { hasLoneSurrogate } from './source-refs.js';

/** Row kind of a batch of history items (one `addItems` call, or the part of one that fits a row). */
export const ITEM_KIND = 'openai-agents.items';

/** Row kind of one history item, as rows were written before batching; still read. */
export const SINGLE_ITEM_KIND = 'openai-agents.item';

/**
 * The payload of an item row: the items of one batch, oldest first. Each entry is the item as a
 * JSON object, or, for an item holding a lone surrogate (text cut mid-emoji, which canonical JSON
 * and UTF-8 cannot hold), the item's JSON text as `JSON.stringify` writes it (the surrogate as a
 * `\udXXX` escape), which `JSON.parse` turns back into the same item. An item too large for a row
 * is alone in its row as `null`, its JSON text cut over part rows whose payload SHA-256 `parts`
 * lists in order (see item-parts.ts). Binary fields (`Uint8Array`, which the SDK allows for image
 * and file data) are stored as base64 strings and their paths (the item's index, then keys and
 * indexes within it) listed in `binary`, so that they come back as `Uint8Array` and a string that
 * merely looks like base64 stays a string.
 *
 * @example
 * ```ts
 * { items: [{ type: 'message', role: 'user', content: 'hi' }, '{"type":"message","content":"\\ud83d"}'] }
 * { items: [null], parts: ['9f2c…', '41ab…'] }
 * ```
 */
export interface ItemPayload {
  items: (Record<string, unknown> | string | null)[];
  /** Paths (item index, then keys and indexes within it) of the fields that were `Uint8Array`. Absent when none. */
  binary?: (string | number)[][];
  /** SHA-256 of each part row's payload, in order, when the row's one item is in part rows. */
  parts?: string[];
}

type Path = (string | number)[];

/** One item encoded: what a row stores for it, the paths of its binary fields, its size. */
export interface EncodedItem {
  /** The item as a JSON object, or its JSON text when it holds a lone surrogate. */
  entry: Record<string, unknown> | string;
  binary: Path[];
  /** UTF-8 bytes of the entry as JSON, plus its binary paths: what it adds to a row's payload, about. */
  bytes: number;
}

/** Where an item comes from, for error messages: `session s, item 3 of the batch`. */
export interface ItemContext {
  sessionId: string;
  /** Which item, e.g. `item 3 of the batch`. */
  what: string;
  /** Deepest nesting an item may have (the store's `limits.maxDepth` less the row's two levels). */
  maxDepth: number;
  /** The store's `limits.maxDepth`, named in the error. */
  storeMaxDepth: number;
}

class Walk {
  readonly binary: Path[] = [];
  loneSurrogate = false;
  readonly #seen = new Set<object>();
  constructor(readonly context: ItemContext) {}

  fail(path: Path, problem: string): never {
    const field = path.length === 0 ? '(root)' : path.join('.');
    throw new CheckpointValidationError(`session ${JSON.stringify(this.context.sessionId)}, ${this.context.what}: field ${field} ${problem}`);
  }

  string(text: string): string {
    if (!this.loneSurrogate && hasLoneSurrogate(text)) this.loneSurrogate = true;
    return text;
  }

  value(value: unknown, path: Path, depth: number): unknown {
    if (value === null || typeof value === 'boolean') return value;
    if (typeof value === 'string') return this.string(value);
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) this.fail(path, `is ${String(value)}, which JSON cannot hold (store it as a string)`);
      return value;
    }
    if (value instanceof Uint8Array) {
      this.binary.push([...path]);
      return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
    }
    if (typeof value !== 'object') this.fail(path, `is a ${typeof value}, which cannot be stored`);
    if (depth > this.context.maxDepth) {
      this.fail(path, `is nested deeper than ${this.context.maxDepth} levels (the store's limits.maxDepth, ${this.context.storeMaxDepth}, less the row's 2); raise limits.maxDepth when opening the store to keep it`);
    }
    if (this.#seen.has(value)) this.fail(path, 'is cyclic');
    this.#seen.add(value);
    try {
      if (Array.isArray(value)) {
        // As JSON.stringify: a hole or an undefined entry becomes null (Array.prototype.map would keep holes).
        const out: unknown[] = new Array<unknown>(value.length);
        for (let index = 0; index < value.length; index++) {
          const entry: unknown = value[index];
          out[index] = entry === undefined ? null : this.value(entry, [...path, index], depth + 1);
        }
        return out;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) this.fail(path, 'is not a plain object, which cannot be stored');
      const out: Record<string, unknown> = {};
      // Undefined members are left out, as JSON.stringify does (the SDK treats absent and undefined
      // alike). An own "__proto__" key is data, not the prototype: defined, not assigned.
      for (const [key, entry] of Object.entries(value)) {
        if (entry === undefined) continue;
        const json = this.value(entry, [...path, this.string(key)], depth + 1);
        if (key === '__proto__') Object.defineProperty(out, key, { value: json, enumerable: true, writable: true, configurable: true });
        else out[key] = json;
      }
      return out;
    } finally {
      this.#seen.delete(value);
    }
  }
}

/**
 * One item as a row stores it: its JSON object (binary fields as base64), or its JSON text when
 * it holds a lone surrogate. Takes a snapshot: later changes to `item` do not reach the store.
 *
 * @throws CheckpointValidationError naming the session, the item and the field when the item is not
 * an object or holds a value JSON cannot keep (functions, class instances, cycles, NaN, nesting
 * deeper than the store's `limits.maxDepth` allows).
 * @example
 * ```ts
 * encodeItem({ role: 'user', content: 'hi' }, context).entry; // { role: 'user', content: 'hi' }
 * ```
 */
export function encodeItem(item: AgentInputItem, context: ItemContext): EncodedItem {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    throw new CheckpointValidationError(`session ${JSON.stringify(context.sessionId)}, ${context.what}: a session item must be an object`);
  }
  const walk = new Walk(context);
  let json: Record<string, unknown>;
  try {
    json = walk.value(item, [], 1) as Record<string, unknown>;
  } catch (error) {
    // A store whose maxDepth was raised very high: the walk itself runs out of stack first.
    if (error instanceof RangeError) walk.fail([], `is nested too deeply to store (${error.message}); lower its nesting`);
    throw error;
  }
  const binaryBytes = walk.binary.length === 0 ? 0 : utf8ByteLength(JSON.stringify(walk.binary)) + 24 * walk.binary.length;
  if (walk.loneSurrogate) {
    // JSON.stringify writes a lone surrogate as a \uXXXX escape: the text is well-formed, and
    // JSON.parse gives the same string back.
    const text = JSON.stringify(json);
    return { entry: text, binary: walk.binary, bytes: utf8ByteLength(JSON.stringify(text)) + binaryBytes };
  }
  return { entry: json, binary: walk.binary, bytes: utf8ByteLength(JSON.stringify(json)) + binaryBytes };
}

/** The JSON text of an encoded item, as its part rows hold it. */
export function entryText(encoded: EncodedItem): string {
  return typeof encoded.entry === 'string' ? encoded.entry : JSON.stringify(encoded.entry);
}

/** The payload of a row holding these items, oldest first (none of them in parts). */
export function itemsPayload(items: readonly EncodedItem[]): ItemPayload {
  const binary = items.flatMap((encoded, index) => encoded.binary.map((path) => [index, ...path]));
  const entries = items.map((encoded) => encoded.entry);
  return binary.length === 0 ? { items: entries } : { items: entries, binary };
}

/** The payload of a row whose one item is in part rows with these payload hashes. */
export function partedPayload(item: EncodedItem, parts: string[]): ItemPayload {
  const binary = item.binary.map((path) => [0, ...path]);
  return binary.length === 0 ? { items: [null], parts } : { items: [null], binary, parts };
}

/** Names a stored row in integrity errors. */
export interface RowContext {
  sessionId: string;
  id: number;
  sourceRef: string | null;
}

function corrupt(row: RowContext, problem: string): CheckpointIntegrityError {
  return new CheckpointIntegrityError(`session ${JSON.stringify(row.sessionId)}: item row ${row.id} (${String(row.sourceRef)}) ${problem}; the store was changed outside this package`);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function isContainer(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Turns the base64 strings at `paths` back into `Uint8Array`, checking every step of every path. */
function restoreBinary(items: unknown[], paths: unknown, row: RowContext): void {
  if (paths === undefined) return;
  if (!Array.isArray(paths)) throw corrupt(row, 'has a binary list that is not an array');
  for (const path of paths as unknown[]) {
    if (!Array.isArray(path) || path.length < 2 || !Number.isSafeInteger(path[0]) || (path[0] as number) < 0 || (path[0] as number) >= items.length) {
      throw corrupt(row, `has a binary path ${JSON.stringify(path)} that names no item`);
    }
    let parent: unknown = items;
    for (let i = 0; i < path.length - 1; i++) {
      const key: unknown = path[i];
      if (!isContainer(parent) || (typeof key !== 'string' && typeof key !== 'number') || !Object.hasOwn(parent, key)) {
        throw corrupt(row, `has a binary path ${JSON.stringify(path)} that leads nowhere`);
      }
      parent = parent[key];
    }
    const last: unknown = path[path.length - 1];
    if (!isContainer(parent) || (typeof last !== 'string' && typeof last !== 'number') || !Object.hasOwn(parent, last)) {
      throw corrupt(row, `has a binary path ${JSON.stringify(path)} that leads nowhere`);
    }
    const text = parent[last];
    if (typeof text !== 'string' || !BASE64.test(text)) throw corrupt(row, `has a binary path ${JSON.stringify(path)} to a value that is not base64`);
    Object.defineProperty(parent, last, { value: new Uint8Array(Buffer.from(text, 'base64')), enumerable: true, writable: true, configurable: true });
  }
}

function isItemObject(value: unknown): value is Record<string, unknown> {
  return isContainer(value) && !Array.isArray(value);
}

/** The item a text entry holds. */
function parseEntry(text: string, row: RowContext): Record<string, unknown> {
  let item: unknown;
  try {
    item = JSON.parse(text);
  } catch {
    throw corrupt(row, 'holds an item text that is not JSON');
  }
  if (!isItemObject(item)) throw corrupt(row, 'holds an item text that is not an object');
  return item;
}

/** A row's payload, parsed and checked: its entries, binary paths and part hashes. */
export interface RowEntries {
  entries: (Record<string, unknown> | string | null)[];
  binary: unknown;
  parts: string[] | undefined;
}

/**
 * The entries a row stores, checked: a batch row holds at least one entry, each an object or a
 * text; a row with `parts` holds exactly one `null`. Reads rows of both kinds. Parses the row's
 * verified `payloadJson` afresh, so callers own the objects.
 *
 * @throws CheckpointIntegrityError when the row is not a well-formed item row.
 */
export function rowEntries(row: RowContext & { kind: string; payloadJson: string }): RowEntries {
  const payload = JSON.parse(row.payloadJson) as Record<string, unknown>;
  if (row.kind === SINGLE_ITEM_KIND) {
    if (!isItemObject(payload.item)) throw corrupt(row, 'is not an openai-agents item row: payload.item must be an object');
    return { entries: [payload.item], binary: Array.isArray(payload.binary) ? payload.binary.map((path: unknown) => (Array.isArray(path) ? [0, ...(path as unknown[])] : path)) : payload.binary, parts: undefined };
  }
  const items = payload.items;
  if (row.kind !== ITEM_KIND || !Array.isArray(items) || items.length === 0) {
    throw corrupt(row, `is not an openai-agents item row (kind ${row.kind}): payload.items must be a non-empty array`);
  }
  const parts = payload.parts;
  if (parts !== undefined) {
    if (!Array.isArray(parts) || parts.length === 0 || parts.some((sha) => typeof sha !== 'string' || !/^[0-9a-f]{64}$/.test(sha)) || items.length !== 1 || items[0] !== null) {
      throw corrupt(row, 'has a parts list that is not one item in parts');
    }
    return { entries: items as null[], binary: payload.binary, parts: parts as string[] };
  }
  if (items.some((item) => typeof item !== 'string' && !isItemObject(item))) throw corrupt(row, 'has an entry that is neither an item object nor an item text');
  return { entries: items as (Record<string, unknown> | string)[], binary: payload.binary, parts: undefined };
}

/**
 * The items of a row's entries, oldest first, binary fields back as `Uint8Array`; `joined` is the
 * JSON text of the one item in parts, when the row has parts.
 *
 * @throws CheckpointIntegrityError when an entry or a binary path is not what this package writes.
 */
export function decodeEntries(entries: RowEntries, row: RowContext, joined?: string): AgentInputItem[] {
  const items = entries.entries.map((entry) => {
    if (entry === null) {
      if (joined === undefined) throw corrupt(row, 'has an item in parts that were not read');
      return parseEntry(joined, row);
    }
    return typeof entry === 'string' ? parseEntry(entry, row) : entry;
  });
  restoreBinary(items, entries.binary, row);
  return items as unknown as AgentInputItem[];
}

/** A row name's item type: printable ASCII, short; anything else is named `item`. */
const NAME_TYPE = /^[\x21-\x7e]{1,64}$/;

/** A short, readable row name for a batch: its items' types, comma-separated (`message` for an item without one). */
export function itemsName(items: readonly EncodedItem[]): string {
  const types = items.map(({ entry }) => {
    const type = typeof entry === 'string' ? undefined : entry.type;
    if (type === undefined && typeof entry !== 'string') return 'message';
    return typeof type === 'string' && NAME_TYPE.test(type) && !type.includes(',') ? type : 'item';
  });
  const name = types.join(',');
  return name.length <= 200 ? name : `${types.length} items`;
}
