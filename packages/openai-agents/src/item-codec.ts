import type { AgentInputItem } from '@openai/agents-core';
import { CheckpointValidationError } from '@session-checkpoint/core';

/** Row kind of a batch of history items (one `addItems` call, or the part of one that fits a row). */
export const ITEM_KIND = 'openai-agents.items';

/** Row kind of one history item, as rows were written before batching; still read. */
export const SINGLE_ITEM_KIND = 'openai-agents.item';

/**
 * The payload of an item row: the items of one batch, oldest first, as JSON. Binary fields
 * (`Uint8Array`, which the SDK allows for image and file data) are stored as base64 strings and
 * their paths (the item's index, then keys and indexes within it) listed in `binary`, so that they
 * come back as `Uint8Array` and a string that merely looks like base64 stays a string.
 *
 * @example
 * ```ts
 * { items: [{ type: 'message', role: 'user', content: 'hi' }, { type: 'message', role: 'assistant', content: [] }] }
 * ```
 */
export interface ItemPayload {
  items: Record<string, unknown>[];
  /** Paths (item index, then keys and indexes within it) of the fields that were `Uint8Array`. Absent when none. */
  binary?: (string | number)[][];
}

/** One item encoded: its JSON and the paths of its binary fields within it. */
export interface EncodedItem {
  item: Record<string, unknown>;
  binary: (string | number)[][];
}

type Path = (string | number)[];

function toJson(value: unknown, path: Path, binary: Path[], seen: Set<object>): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Uint8Array) {
    binary.push([...path]);
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  }
  if (typeof value !== 'object') {
    throw new CheckpointValidationError(`session item field ${path.join('.') || '(root)'} is a ${typeof value}, which cannot be stored`);
  }
  if (seen.has(value)) throw new CheckpointValidationError(`session item field ${path.join('.')} is cyclic`);
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      // As JSON.stringify: an undefined array entry becomes null.
      return value.map((entry, index) => (entry === undefined ? null : toJson(entry, [...path, index], binary, seen)));
    }
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) {
      throw new CheckpointValidationError(`session item field ${path.join('.') || '(root)'} is not a plain object, which cannot be stored`);
    }
    const out: Record<string, unknown> = {};
    // Undefined members are left out, as JSON.stringify does (the SDK treats absent and undefined alike).
    for (const [key, entry] of Object.entries(value)) if (entry !== undefined) out[key] = toJson(entry, [...path, key], binary, seen);
    return out;
  } finally {
    seen.delete(value);
  }
}

/**
 * One item as JSON, its binary fields as base64.
 *
 * @throws CheckpointValidationError when the item is not an object or holds a value JSON cannot keep (functions, class instances, cycles).
 */
export function encodeItem(item: AgentInputItem): EncodedItem {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new CheckpointValidationError('a session item must be an object');
  const binary: Path[] = [];
  const json = toJson(item, [], binary, new Set()) as Record<string, unknown>;
  return { item: json, binary };
}

/** The payload of a row holding these items, oldest first. */
export function itemsPayload(items: readonly EncodedItem[]): ItemPayload {
  const binary = items.flatMap((encoded, index) => encoded.binary.map((path) => [index, ...path]));
  const json = items.map((encoded) => encoded.item);
  return binary.length === 0 ? { items: json } : { items: json, binary };
}

/** Bytes an item adds to a row's payload, about (JSON text, with room for its binary paths). */
export function encodedSize(encoded: EncodedItem): number {
  return Buffer.byteLength(JSON.stringify(encoded.item)) + (encoded.binary.length === 0 ? 1 : Buffer.byteLength(JSON.stringify(encoded.binary)) + 24 * encoded.binary.length);
}

function restoreBinary(root: Record<string | number, unknown>, paths: unknown): void {
  if (!Array.isArray(paths)) return;
  for (const path of paths as Path[]) {
    let parent = root;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    const last = path[path.length - 1] as string | number;
    parent[last] = new Uint8Array(Buffer.from(parent[last] as string, 'base64'));
  }
}

/**
 * The items a row stores, oldest first (binary fields back as `Uint8Array`); reads rows of both
 * kinds. Parses the row's verified `payloadJson` afresh, so callers own the objects.
 *
 * @throws CheckpointValidationError when the row is not an item row.
 */
export function decodeRow(row: { kind: string; payloadJson: string }): AgentInputItem[] {
  const payload = JSON.parse(row.payloadJson) as Record<string, unknown>;
  if (row.kind === SINGLE_ITEM_KIND) {
    const item = payload.item;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new CheckpointValidationError('not an openai-agents item row: payload.item must be an object');
    restoreBinary(item as Record<string, unknown>, payload.binary);
    return [item as unknown as AgentInputItem];
  }
  const items = payload.items;
  if (row.kind !== ITEM_KIND || !Array.isArray(items) || items.some((item) => item === null || typeof item !== 'object' || Array.isArray(item))) {
    throw new CheckpointValidationError(`not an openai-agents item row (kind ${row.kind}): payload.items must be an array of objects`);
  }
  restoreBinary(items as unknown as Record<number, unknown>, payload.binary);
  return items as AgentInputItem[];
}

/** A short, readable row name for a batch: its items' types, comma-separated (`message` for an item without one). */
export function itemsName(items: readonly EncodedItem[]): string {
  const types = items.map(({ item }) => (typeof item.type === 'string' && item.type !== '' && item.type.length <= 64 ? item.type : 'message'));
  const name = types.join(',');
  return name.length <= 200 ? name : `${types.length} items`;
}
