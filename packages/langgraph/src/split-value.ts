import { CheckpointValidationError, type Checkpoint as StoredRow, type CheckpointStore, type CreateCheckpointInput, type JsonValue, type PreparedCheckpoint } from '@session-checkpoint/core';
import { PART_KIND, partPayload, type PartPayload, type PartRef } from './row-payloads.js';
import type { StoredValue } from './stored-value.js';
import { jsonBytes, PART_OVERHEAD, splitItems, splitText } from './value-parts.js';

/*
 * A value too large for the row that owns it (a checkpoint row or a pending-writes row), moved
 * into part rows and joined back. Two forms (see value-parts.ts): item slices for a list, or for
 * an object whose bulk is one list (`at` names its key; the rest of the object, the shell, stays
 * in the owning row), and text slices for anything else. Writing picks the form; reading follows
 * what the stored value says.
 */

/** Where the parts of a row go. */
export interface PartTarget {
  namespace: string;
  thread: string;
  ns: string;
  checkpointId: string;
  /** Names the row in errors. */
  what: string;
}

/** An object's shell beyond this size keeps the object in text form: the shell stays in the owning row. */
const MAX_SHELL_BYTES = 4096;

/** The prepared row, or `undefined` when it is over the payload limit (any other error is thrown). */
export function tryPrepare(tx: CheckpointStore, input: CreateCheckpointInput): PreparedCheckpoint | undefined {
  try {
    return tx.prepare(input);
  } catch (error) {
    if (error instanceof CheckpointValidationError && /carrier limit/.test(error.message)) return undefined;
    throw error;
  }
}

/**
 * How a stored value is cut into parts, decided once per value: its items (with the key and shell
 * of an object around them) and each item's JSON bytes, or its text. `bytes` orders the values
 * a row moves out first.
 */
export type ValueCut = { value: StoredValue; bytes: number } & (
  | { items: unknown[]; sizes: number[]; at?: string; shell?: Record<string, unknown> }
  | { text: string; form: 'j' | 'b64' }
);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The item form when the value is a list or an object whose bulk is one list, else its text. */
export function cutValue(v: StoredValue): ValueCut {
  if (v.b64 !== undefined) return { value: v, bytes: v.b64.length, text: v.b64, form: 'b64' };
  const j = v.j ?? null;
  const itemsCut = (items: unknown[], around: { at: string; shell: Record<string, unknown> } | undefined, extra: number): ValueCut => {
    const sizes = items.map(jsonBytes);
    let bytes = extra + items.length + 1;
    for (const size of sizes) bytes += size;
    return { value: v, bytes, items, sizes, ...around };
  };
  if (Array.isArray(j)) return itemsCut(j, undefined, 0);
  if (isPlainObject(j)) {
    let at: string | undefined;
    let longest = -1;
    for (const key of Object.keys(j)) {
      const member = j[key];
      if (Array.isArray(member) && member.length > longest) [at, longest] = [key, member.length];
    }
    if (at !== undefined && at !== '__proto__') {
      const shell: Record<string, unknown> = {};
      for (const key of Object.keys(j)) if (key !== at) Object.defineProperty(shell, key, { value: j[key], enumerable: true, writable: true, configurable: true });
      const shellBytes = jsonBytes(shell);
      if (shellBytes <= MAX_SHELL_BYTES) return itemsCut(j[at] as unknown[], { at, shell }, shellBytes);
    }
  }
  const text = JSON.stringify(j);
  return { value: v, bytes: text.length, text, form: 'j' };
}

/** The part row of one slice. */
function preparePart(tx: CheckpointStore, target: PartTarget, channel: string, k: number, slice: { text: string } | { items: unknown[] }, refOf: (k: number) => string): PreparedCheckpoint | undefined {
  const head = { thread_id: target.thread, checkpoint_ns: target.ns, checkpoint_id: target.checkpointId, channel, k };
  const payload: PartPayload = 'text' in slice ? { langgraph: 2, ...head, text: slice.text } : { langgraph: 3, ...head, items: slice.items };
  return tryPrepare(tx, { namespace: target.namespace, sessionId: target.thread, kind: PART_KIND, name: `part ${k}`, payload, sourceRef: refOf(k) });
}

/** Item slices as part rows, or `undefined` when an item alone does not fit one. */
function itemParts(tx: CheckpointStore, target: PartTarget, channel: string, items: unknown[], sizes: number[], refOf: (k: number) => string, k0: number): PreparedCheckpoint[] | undefined {
  const slices = splitItems(items, tx.limits.maxPayloadBytes - PART_OVERHEAD, sizes);
  if (slices === undefined) return undefined;
  const parts: PreparedCheckpoint[] = [];
  // The slices are sized by JSON.stringify; the canonical form can be a little longer (Python's
  // float spelling, e.g. 1e-07), so a slice over the limit is halved and tried again.
  const queue = slices.reverse();
  for (let slice = queue.pop(); slice !== undefined; slice = queue.pop()) {
    const part = preparePart(tx, target, channel, k0 + parts.length, { items: slice }, refOf);
    if (part !== undefined) parts.push(part);
    else if (slice.length > 1) queue.push(slice.slice(slice.length >> 1), slice.slice(0, slice.length >> 1));
    else return undefined;
  }
  return parts;
}

/** Text slices as part rows: always fit, since each slice is sized by its escaped form. */
function textParts(tx: CheckpointStore, target: PartTarget, channel: string, text: string, refOf: (k: number) => string, k0: number): PreparedCheckpoint[] {
  return splitText(text, tx.limits.maxPayloadBytes - PART_OVERHEAD).map((slice, i) => {
    const part = preparePart(tx, target, channel, k0 + i, { text: slice }, refOf);
    if (part === undefined) throw new CheckpointValidationError(`part ${k0 + i} of ${target.what}, channel '${channel}', is over the store's maxPayloadBytes (${tx.limits.maxPayloadBytes})`);
    return part;
  });
}

/**
 * Moves a stored value, cut by {@link cutValue}, into part rows numbered from `k0`: returns the
 * value its owning row keeps (the tag, the form, the part list and, for an object cut at one
 * list, the rest of the object) and the prepared part rows.
 *
 * @example
 * ```ts
 * const { value, parts } = splitValue(tx, target, 'messages', cutValue({ t: 'json', j: bigList }), (k) => partRef(thread, ns, id, k), 0);
 * // value: { t: 'json', parts: [{ k: 0, sha }, { k: 1, sha }], form: 'items' }
 * ```
 */
export function splitValue(tx: CheckpointStore, target: PartTarget, channel: string, cut: ValueCut, refOf: (k: number) => string, k0: number): { value: StoredValue; parts: PreparedCheckpoint[] } {
  const v = cut.value;
  const size = v.s === undefined ? {} : { s: v.s };
  if ('items' in cut) {
    const parts = itemParts(tx, target, channel, cut.items, cut.sizes, refOf, k0);
    if (parts !== undefined) {
      const around = cut.at === undefined ? {} : { at: cut.at, j: cut.shell as JsonValue };
      return { value: { t: v.t, ...size, parts: refsOf(parts, k0), form: 'items', ...around }, parts };
    }
  }
  // An item alone larger than a part: the value goes as text.
  const text = 'text' in cut ? cut.text : JSON.stringify(v.j ?? null);
  const form = 'text' in cut ? cut.form : 'j';
  const parts = textParts(tx, target, channel, text, refOf, k0);
  return { value: { t: v.t, ...size, parts: refsOf(parts, k0), form }, parts };
}

function refsOf(parts: readonly PreparedCheckpoint[], k0: number): PartRef[] {
  return parts.map((part, i) => ({ k: k0 + i, sha: part.payloadSha256 }));
}

/**
 * The value a row's parts join to, each part row checked against the SHA-256 its owner recorded.
 * `rowOf` finds a part's verified row; `fail` makes the error for a reason such as
 * `part 2 is missing`.
 */
export function joinValue(v: StoredValue, rowOf: (k: number) => StoredRow | undefined, fail: (reason: string) => Error): StoredValue {
  const payloads = (v.parts ?? []).map((part) => {
    const row = rowOf(part.k);
    if (!row) throw fail(`part ${part.k} is missing`);
    if (row.payloadSha256 !== part.sha) throw fail(`part ${part.k} is not the one stored (SHA-256 differs)`);
    return partPayload(row);
  });
  if (v.form === 'items') {
    const items: unknown[] = [];
    for (const p of payloads) {
      if (p.items === undefined) throw fail(`part ${p.k} holds text where items were stored`);
      for (const item of p.items) items.push(item);
    }
    if (v.at === undefined) return { t: v.t, j: items as JsonValue };
    if (!isPlainObject(v.j) || Object.hasOwn(v.j, v.at)) throw fail(`the rest of the object around '${v.at}' is not an object without it`);
    const whole: Record<string, unknown> = { ...v.j };
    Object.defineProperty(whole, v.at, { value: items, enumerable: true, writable: true, configurable: true });
    return { t: v.t, j: whole as JsonValue };
  }
  let text = '';
  for (const p of payloads) {
    if (p.text === undefined) throw fail(`part ${p.k} holds items where text was stored`);
    text += p.text;
  }
  if (v.form === 'b64') return { t: v.t, b64: text };
  try {
    return { t: v.t, j: JSON.parse(text) as JsonValue };
  } catch {
    throw fail('its parts do not join to JSON');
  }
}
