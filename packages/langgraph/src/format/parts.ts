import { CheckpointValidationError, utf8ByteLength, type Checkpoint as StoredRow, type CheckpointStore, type CreateCheckpointInput, type JsonValue, type PreparedCheckpoint } from '@session-checkpoint/core';
import { jsonBytes, setOwn } from './json.js';
import { isObject, PART_KIND, partPayload, type PartPayload, type PartRef, type StoredValue } from './payloads.js';

/*
 * A value too large for the row that owns it is cut into slices, one `langgraph.part` row each
 * within the payload limit, and joined back on read. A list (or an object whose bulk is one list,
 * such as DeltaChannel's snapshot) is cut between its items, parsed once on read
 * (docs/decisions/0011); any other value as its JSON text or base64. The owning row lists the
 * parts with their payload SHA-256, so a missing, swapped or altered part is caught.
 */

/** Bytes of a part row besides its text: ids, field names, escaping slack. */
export const PART_OVERHEAD = 2048;

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

/**
 * Cuts `text` into slices whose JSON string form (quotes and backslashes escaped, UTF-8) is at
 * most `budget` bytes, never between the two halves of a surrogate pair.
 */
export function splitText(text: string, budget: number): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    let len = Math.min(text.length - at, Math.max(1, budget - 2));
    for (;;) {
      let end = at + len;
      // Never end on a high surrogate: its low half would start the next slice alone.
      const high = text.charCodeAt(end - 1) >= 0xd800 && text.charCodeAt(end - 1) <= 0xdbff;
      if (end < text.length && high && len > 1) end--;
      const slice = text.slice(at, end);
      if (utf8ByteLength(JSON.stringify(slice)) <= budget || len === 1) {
        out.push(slice);
        at = end;
        break;
      }
      len = Math.max(1, Math.floor(len / 2));
    }
  }
  return out;
}

/**
 * Cuts `items` into consecutive slices whose JSON array form (UTF-8, as `JSON.stringify` writes
 * it) is at most `budget` bytes each, or `undefined` when one item alone is over it (the caller
 * then cuts the value's text instead). `sizes` are the items' {@link jsonBytes}, when known.
 */
export function splitItems(items: readonly unknown[], budget: number, sizes: readonly number[] = items.map(jsonBytes)): unknown[][] | undefined {
  const out: unknown[][] = [];
  let slice: unknown[] = [];
  let bytes = 2; // the brackets
  for (let i = 0; i < items.length; i++) {
    const size = (sizes[i] as number) + 1; // and its comma
    if (size + 2 > budget) return undefined;
    if (bytes + size > budget) {
      out.push(slice);
      slice = [];
      bytes = 2;
    }
    slice.push(items[i]);
    bytes += size;
  }
  if (slice.length > 0) out.push(slice);
  return out;
}

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

/** The item form when the value is a list or an object whose bulk is one list, else its text. */
export function cutValue(v: StoredValue): ValueCut {
  if (v.b64 !== undefined) return { value: v, bytes: v.b64.length, text: v.b64, form: 'b64' };
  const j = v.j ?? null;
  const itemsCut = (items: unknown[], around: { at: string; shell: Record<string, unknown> } | undefined, extra: number): ValueCut => {
    const sizes = items.map(jsonBytes);
    return { value: v, bytes: sizes.reduce((sum, size) => sum + size, extra + items.length + 1), items, sizes, ...around };
  };
  if (Array.isArray(j)) return itemsCut(j, undefined, 0);
  if (isObject(j)) {
    let at: string | undefined;
    let longest = -1;
    for (const key of Object.keys(j)) {
      const member = j[key];
      if (Array.isArray(member) && member.length > longest) [at, longest] = [key, member.length];
    }
    if (at !== undefined && at !== '__proto__') {
      const shell: Record<string, unknown> = {};
      for (const key of Object.keys(j)) if (key !== at) setOwn(shell, key, j[key]);
      const shellBytes = jsonBytes(shell);
      if (shellBytes <= MAX_SHELL_BYTES) return itemsCut(j[at] as unknown[], { at, shell }, shellBytes);
    }
  }
  const text = JSON.stringify(j);
  return { value: v, bytes: text.length, text, form: 'j' };
}

/**
 * Moves a stored value, cut by {@link cutValue}, into part rows numbered from `k0`: returns the
 * value its owning row keeps (the tag, the form, the part list and, for an object cut at one
 * list, the rest of the object) and the prepared part rows.
 */
function splitValue(tx: CheckpointStore, target: PartTarget, channel: string, cut: ValueCut, refOf: (k: number) => string, k0: number): { value: StoredValue; parts: PreparedCheckpoint[] } {
  const v = cut.value;
  const size = v.s === undefined ? {} : { s: v.s };
  /** The part row of one slice. */
  const part = (k: number, slice: { text: string } | { items: unknown[] }) => {
    const head = { thread_id: target.thread, checkpoint_ns: target.ns, checkpoint_id: target.checkpointId, channel, k };
    const payload: PartPayload = 'text' in slice ? { langgraph: 2, ...head, text: slice.text } : { langgraph: 3, ...head, items: slice.items };
    return tryPrepare(tx, { namespace: target.namespace, sessionId: target.thread, kind: PART_KIND, name: `part ${k}`, payload, sourceRef: refOf(k) });
  };
  const refs = (parts: readonly PreparedCheckpoint[]): PartRef[] => parts.map((p, i) => ({ k: k0 + i, sha: p.payloadSha256 }));
  if ('items' in cut) {
    const slices = splitItems(cut.items, tx.limits.maxPayloadBytes - PART_OVERHEAD, cut.sizes);
    const parts: PreparedCheckpoint[] = [];
    let fits = slices !== undefined;
    // Slices sized by JSON.stringify; the canonical form can be a little longer (Python's float
    // spelling, e.g. 1e-07), so a slice over the limit is halved and tried again.
    const queue = (slices ?? []).reverse();
    for (let slice = queue.pop(); fits && slice !== undefined; slice = queue.pop()) {
      const prepared = part(k0 + parts.length, { items: slice });
      if (prepared !== undefined) parts.push(prepared);
      else if (slice.length > 1) queue.push(slice.slice(slice.length >> 1), slice.slice(0, slice.length >> 1));
      else fits = false;
    }
    if (fits) {
      const around = cut.at === undefined ? {} : { at: cut.at, j: cut.shell as JsonValue };
      return { value: { t: v.t, ...size, parts: refs(parts), form: 'items', ...around }, parts };
    }
  }
  // An item alone larger than a part: the value goes as text, in slices sized by their escaped form.
  const text = 'text' in cut ? cut.text : JSON.stringify(v.j ?? null);
  const parts = splitText(text, tx.limits.maxPayloadBytes - PART_OVERHEAD).map((slice, i) => {
    const prepared = part(k0 + i, { text: slice });
    if (prepared === undefined) throw new CheckpointValidationError(`part ${k0 + i} of ${target.what}, channel '${channel}', is over the store's maxPayloadBytes (${tx.limits.maxPayloadBytes})`);
    return prepared;
  });
  return { value: { t: v.t, ...size, parts: refs(parts), form: 'text' in cut ? cut.form : 'j' }, parts };
}

/** A value the owning row may move into part rows, and how the row takes its split form back. */
export interface Movable {
  channel: string;
  cut: ValueCut;
  replace(value: StoredValue): void;
}

/**
 * Prepares a row that is over the payload limit whole, moving its largest values into part rows
 * (numbered from `k0`) one by one until it fits; `rebuild` renews `input.payload` after each move.
 * `undefined` when it does not fit even with every value moved.
 */
export function moveToParts(
  tx: CheckpointStore,
  input: CreateCheckpointInput,
  movable: Movable[],
  target: PartTarget,
  refOf: (k: number) => string,
  k0: number,
  rebuild: () => void = () => undefined,
): { prepared: PreparedCheckpoint; parts: PreparedCheckpoint[] } | undefined {
  const parts: PreparedCheckpoint[] = [];
  for (const m of movable.sort((a, b) => b.cut.bytes - a.cut.bytes)) {
    const split = splitValue(tx, target, m.channel, m.cut, refOf, k0 + parts.length);
    parts.push(...split.parts);
    m.replace(split.value);
    rebuild();
    const prepared = tryPrepare(tx, input);
    if (prepared !== undefined) return { prepared, parts };
  }
  return undefined;
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
    if (!isObject(v.j) || Object.hasOwn(v.j, v.at)) throw fail(`the rest of the object around '${v.at}' is not an object without it`);
    const whole: Record<string, unknown> = { ...v.j };
    setOwn(whole, v.at, items);
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
