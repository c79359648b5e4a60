import { types } from 'node:util';
import { CheckpointValidationError, canonicalize, utf8ByteLength, type Checkpoint, type CheckpointStore, type PreparedCheckpoint } from '@session-checkpoint/core';
import { KINDS } from './rows/namespace.js';
import { partRef } from './rows/refs.js';
import type { ValuePayload } from './rows/values.js';
import { deleteExactly } from './store-rows.js';

/** Room left in a row for the fields besides the value, and for a part's wrapper. */
const ENVELOPE = 2048;

/**
 * A value as JSON: what Mastra's SQL stores keep (`JSON.stringify` on write, `JSON.parse` on read),
 * so a `Date` becomes its ISO text and `undefined` members go.
 *
 * @throws CheckpointValidationError naming `what` when the value is not JSON.
 */
export function jsonOf(value: unknown, what: string): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? null : (JSON.parse(text) as unknown);
  } catch (error) {
    throw new CheckpointValidationError(`${what} is not JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** Containers deeper than this take the round trip (the canonicaliser's own limits then apply). */
const PLAIN_DEPTH = 32;

/**
 * What {@link jsonOf} would give back, built by walking `value` when it is plain JSON already:
 * strings, booleans, finite numbers other than -0, null, dense arrays and plain objects
 * (prototype `Object.prototype`, no `toJSON`, every own enumerable string key a data property) of
 * those, at most 32 deep (a cycle is too deep). The result is a new copy, as the round trip's is,
 * so a caller who changes `value` afterwards changes nothing kept. `undefined` for anything else
 * (a `Date`, `undefined`, a function, a class instance, an accessor, a sparse array, NaN): take
 * the round trip.
 */
export function plainJsonCopy(value: unknown, depth = 0): unknown {
  return plainJson(value, depth, true);
}

/**
 * True when `value` is plain JSON by {@link plainJsonCopy}'s rules (the same walk, without the
 * copy): its JSON round trip would give an equal value, so a caller that canonicalises it at once,
 * before anyone can change it, needs no copy of it (a persist's snapshot, decision record 0052).
 */
export function isPlainJson(value: unknown): boolean {
  return plainJson(value, 0, false) !== undefined;
}

/** {@link plainJsonCopy} (`copy`), or the check alone: `value` itself when plain, else `undefined`. */
function plainJson(value: unknown, depth: number, copy: boolean): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0) ? value : undefined;
    case 'object': {
      if (value === null) return null;
      // A toJSON anywhere (own, not enumerable, inherited) is what JSON.stringify calls instead.
      if (depth >= PLAIN_DEPTH || 'toJSON' in value) return undefined;
      // A Proxy's get may disagree with the descriptors read here; JSON.stringify unboxes a boxed
      // primitive by its internal slot, whatever its prototype.
      if (types.isProxy(value) || types.isBoxedPrimitive(value)) return undefined;
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return undefined;
        const out: unknown[] | undefined = copy ? new Array(value.length) : undefined;
        for (let i = 0; i < value.length; i++) {
          // Items by descriptor, as members are: a hole, or an accessor (read again by the canonicaliser), is not plain.
          const d = Object.getOwnPropertyDescriptor(value, i);
          if (d === undefined || !('value' in d)) return undefined;
          const item = plainJson(d.value, depth + 1, copy);
          if (item === undefined) return undefined;
          if (out !== undefined) out[i] = item;
        }
        return out ?? value;
      }
      // A null-prototype object would come back from the round trip with Object.prototype.
      if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
      const out: Record<string, unknown> | undefined = copy ? {} : undefined;
      for (const key of Object.getOwnPropertyNames(value)) {
        const d = Object.getOwnPropertyDescriptor(value, key) as PropertyDescriptor;
        if (!d.enumerable) continue;
        // An own "__proto__" key would set the copy's prototype instead of a member.
        if (!('value' in d) || key === '__proto__') return undefined;
        const member = plainJson(d.value, depth + 1, copy);
        if (member === undefined) return undefined;
        if (out !== undefined) out[key] = member;
      }
      return out ?? value;
    }
    default:
      return undefined;
  }
}

/** `Date.prototype.toJSON` as this module found it: after it is replaced, every record takes the round trip. */
const DATE_TO_JSON = Date.prototype.toJSON;

/**
 * {@link jsonOf} of a record whose members are plain JSON but for `Date`s at its top level (a
 * Mastra message: its `createdAt`), without the JSON round trip when it can be skipped: each
 * top-level plain, valid `Date` becomes its ISO text (what `Date.prototype.toJSON` gives), and the
 * other members are copied by {@link plainJsonCopy} (the round trip would build an equal copy, at
 * about a tenth of a message save's CPU). Nothing of `value` is shared with the result, so the
 * caller may change its messages while the save runs. Anything else takes {@link jsonOf}.
 *
 * @throws CheckpointValidationError naming `what` when the value is not JSON.
 */
export function recordJson(value: Record<string, unknown>, what: string): unknown {
  // A toJSON on the record itself (own, not enumerable, so the copy below would drop it) is what
  // JSON.stringify calls instead.
  if (Date.prototype.toJSON !== DATE_TO_JSON || Object.getPrototypeOf(value) !== Object.prototype || 'toJSON' in value) return jsonOf(value, what);
  const plain: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return jsonOf(value, what);
    const member = value[key];
    if (member instanceof Date && Object.getPrototypeOf(member) === Date.prototype && !Object.hasOwn(member, 'toJSON') && Number.isFinite(member.getTime())) {
      plain[key] = member.toISOString();
      continue;
    }
    const copy = plainJsonCopy(member, 1);
    if (copy === undefined) return jsonOf(value, what);
    plain[key] = copy;
  }
  return plain;
}

/** Cuts `text` into slices whose JSON string fits `budget` bytes, never inside a surrogate pair. */
function slices(text: string, budget: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    let length = Math.min(text.length - at, budget);
    for (;;) {
      if (length < text.length - at && /[\ud800-\udbff]/.test(text.charAt(at + length - 1))) length--;
      const size = utf8ByteLength(JSON.stringify(text.slice(at, at + length)));
      if (size <= budget) break;
      length = Math.max(1, Math.floor((length * budget) / size) - 1);
    }
    out.push(text.slice(at, at + length));
    at += length;
  }
  return out;
}

/** One row to write whose payload is `{ ...fields, value }`. */
export interface ValueRow {
  namespace: string;
  sessionId: string;
  kind: string;
  name: string;
  ref: string;
  fields: Record<string, unknown>;
  /** Already JSON (see {@link jsonOf}). */
  value: unknown;
}

/**
 * The rows of a value, prepared (validated, canonical, hashed) and not written: the row itself
 * inline when its canonical payload, with {@link ENVELOPE} bytes to spare, fits the store's
 * `maxPayloadBytes` (and `options.inlineBytes`, for rows that are read often for their other
 * fields), else its canonical JSON text cut over part rows bound by
 * SHA-256, the parts first and the row naming them last. For a caller that writes the rows of
 * several values with one `insertPreparedMany`.
 */
export function valueRows(tx: CheckpointStore, row: ValueRow, options: { inlineBytes?: number } = {}): PreparedCheckpoint[] {
  const base = { namespace: row.namespace, sessionId: row.sessionId, name: row.name };
  const max = tx.limits.maxPayloadBytes;
  const limit = Math.min(max, options.inlineBytes ?? max);
  // The row inline, prepared once: its canonical size decides (a JSON.stringify of the value to
  // estimate the size first cost about as much as the canonical text itself). When the store
  // refuses it inline, the size is estimated as before: a value estimated to fit is prepared again
  // (so the store's own error is thrown, as it always was), a larger one goes to part rows.
  let inline: PreparedCheckpoint | undefined;
  const inlinePayload = { ...row.fields, value: row.value };
  try {
    inline = tx.prepare({ ...base, kind: row.kind, payload: inlinePayload, sourceRef: row.ref });
  } catch (error) {
    if (!(error instanceof CheckpointValidationError)) throw error;
    const estimate = utf8ByteLength(JSON.stringify(row.value) ?? 'null') + utf8ByteLength(JSON.stringify(row.fields));
    if (estimate + ENVELOPE <= limit) return [tx.prepare({ ...base, kind: row.kind, payload: inlinePayload, sourceRef: row.ref })];
  }
  if (inline !== undefined && inline.payloadBytes + ENVELOPE <= limit) return [inline];
  let text: string;
  try {
    text = canonicalize(row.value);
  } catch (error) {
    throw new CheckpointValidationError(`${row.kind} ${row.ref} cannot be stored: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (max - ENVELOPE < 256) throw new CheckpointValidationError(`the store's limits.maxPayloadBytes (${max}) is too small for a part of ${row.ref}`);
  const out: PreparedCheckpoint[] = [];
  const pieces = slices(text, max - ENVELOPE);
  for (let k = 0; k < pieces.length; k++) {
    out.push(tx.prepare({ ...base, name: `${row.name} part ${k}`.slice(0, 256), kind: KINDS.part, payload: { part: k, text: pieces[k] as string }, sourceRef: partRef(row.ref, k) }));
  }
  const payload: ValuePayload & Record<string, unknown> = { ...row.fields, parts: out.map((part) => part.payloadSha256) };
  out.push(tx.prepare({ ...base, kind: row.kind, payload, sourceRef: row.ref }));
  return out;
}

/**
 * Writes a row holding a value, in the caller's transaction (see {@link valueRows}): one insert,
 * or one multi-row insert with its parts.
 */
export async function putValue(tx: CheckpointStore, row: ValueRow, options: { inlineBytes?: number } = {}): Promise<Checkpoint> {
  return (await writeRows(tx, valueRows(tx, row, options))).at(-1) as Checkpoint;
}

/**
 * Writes prepared rows in the caller's transaction, in order, all or nothing: one row with the
 * store's single insert, several with one `insertPreparedMany` (one multi-row insert on SQL
 * stores, where a create per row costs a statement each).
 */
export async function writeRows(tx: CheckpointStore, rows: readonly PreparedCheckpoint[]): Promise<Checkpoint[]> {
  if (rows.length === 1) return [await tx.insertPrepared(rows[0] as PreparedCheckpoint)];
  return tx.insertPreparedMany(rows);
}

/** Deletes rows and their part rows, in the caller's transaction. */
export async function deleteValueRows(tx: CheckpointStore, namespace: string, rows: readonly Checkpoint[]): Promise<void> {
  if (rows.length === 0) return;
  const partRefs = rows.flatMap((row) => ((row.payload as ValuePayload).parts ?? []).map((_, k) => partRef(row.sourceRef ?? '', k)));
  const parts = partRefs.length === 0 ? [] : await tx.findBySourceRefs(namespace, partRefs);
  await deleteExactly(tx, namespace, [...rows.map((r) => r.id), ...parts.map((p) => p.id)]);
}
