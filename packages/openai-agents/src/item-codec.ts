import type { AgentInputItem } from '@openai/agents-core';
import { CheckpointValidationError } from '@session-checkpoint/core';

/** Row kind of one history item. */
export const ITEM_KIND = 'openai-agents.item';

/**
 * The payload of an item row. `item` is the item as JSON; binary fields (`Uint8Array`, which the
 * SDK allows for image and file data) are stored as base64 strings and their paths listed in
 * `binary`, so that they come back as `Uint8Array` and a string that merely looks like base64
 * stays a string.
 *
 * @example
 * ```ts
 * { item: { type: 'message', role: 'user', content: 'hi' } }
 * ```
 */
export interface ItemPayload {
  item: Record<string, unknown>;
  /** Paths (keys and indexes from `item`) of the fields that were `Uint8Array`. Absent when none. */
  binary?: (string | number)[][];
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
 * The payload that stores `item`.
 *
 * @throws CheckpointValidationError when the item is not an object or holds a value JSON cannot keep (functions, class instances, cycles).
 */
export function encodeItem(item: AgentInputItem): ItemPayload {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new CheckpointValidationError('a session item must be an object');
  const binary: Path[] = [];
  const json = toJson(item, [], binary, new Set()) as Record<string, unknown>;
  return binary.length === 0 ? { item: json } : { item: json, binary };
}

/** The item a payload stores (binary fields back as `Uint8Array`). */
export function decodeItem(payload: Record<string, unknown>): AgentInputItem {
  const item = payload.item;
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new CheckpointValidationError('not an openai-agents item row: payload.item must be an object');
  const binary = payload.binary;
  if (Array.isArray(binary)) {
    for (const path of binary as Path[]) {
      let parent = item as Record<string | number, unknown>;
      for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
      const last = path[path.length - 1] as string | number;
      parent[last] = new Uint8Array(Buffer.from(parent[last] as string, 'base64'));
    }
  }
  return item as unknown as AgentInputItem;
}

/** A short, readable row name for an item: its type (`message` when it has none). */
export function itemName(item: AgentInputItem): string {
  const type = (item as { type?: unknown }).type;
  return typeof type === 'string' && type !== '' && type.length <= 64 ? type : 'message';
}
