import { CheckpointValidationError, type CheckpointStore, type CreateCheckpointInput, type PreparedCheckpoint } from '@session-checkpoint/core';
import { PART_KIND, type PartPayload, type PartRef, type StoredWrite } from './row-payloads.js';
import type { StoredValue } from './stored-value.js';
import { PART_OVERHEAD, splitText } from './value-parts.js';

/** Where the parts of a row go. */
export interface PartTarget {
  namespace: string;
  thread: string;
  ns: string;
  checkpointId: string;
  /** Names the row in errors. */
  what: string;
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
 * Cuts `text` (a value's JSON text or base64) into part rows within the store's payload limit.
 * `k0` is the first part number.
 */
export function prepareParts(tx: CheckpointStore, target: PartTarget, channel: string, text: string, refOf: (k: number) => string, k0: number): { refs: PartRef[]; parts: PreparedCheckpoint[] } {
  const refs: PartRef[] = [];
  const parts: PreparedCheckpoint[] = [];
  for (const slice of splitText(text, tx.limits.maxPayloadBytes - PART_OVERHEAD)) {
    const k = k0 + parts.length;
    const payload: PartPayload = { langgraph: 2, thread_id: target.thread, checkpoint_ns: target.ns, checkpoint_id: target.checkpointId, channel, k, text: slice };
    const part = tx.prepare({ namespace: target.namespace, sessionId: target.thread, kind: PART_KIND, name: `part ${k}`, payload, sourceRef: refOf(k) });
    parts.push(part);
    refs.push({ k, sha: part.payloadSha256 });
  }
  return { refs, parts };
}

/** A stored value moved to parts: only the tag, the form and the part list stay in the row. */
export function partsValue(v: StoredValue, refs: PartRef[]): StoredValue {
  return { t: v.t, ...(v.s === undefined ? {} : { s: v.s }), parts: refs, form: v.b64 !== undefined ? 'b64' : 'j' };
}

/** The text a stored value's parts hold. */
export function partText(v: StoredValue): string {
  return v.b64 ?? JSON.stringify(v.j ?? null);
}

/**
 * Prepares a pending-writes row, first moving its largest values into part rows while it is
 * over the payload limit (`writes` is changed in place).
 *
 * @throws CheckpointValidationError naming the row, its size and `maxPayloadBytes`.
 */
export function fitRow(
  tx: CheckpointStore,
  input: CreateCheckpointInput,
  writes: StoredWrite[],
  refOf: (k: number) => string,
  target: PartTarget,
): { prepared: PreparedCheckpoint; parts: PreparedCheckpoint[] } {
  const first = tryPrepare(tx, input);
  if (first !== undefined) return { prepared: first, parts: [] };
  // Part numbers unique across merges of one task's row: an earlier call's parts stay in use.
  let k = Math.floor(Math.random() * 2 ** 40) * 1024;
  const parts: PreparedCheckpoint[] = [];
  const order = writes
    .map((w, i) => ({ i, text: w.value.parts === undefined ? partText(w.value) : '' }))
    .filter((c) => c.text !== '')
    .sort((a, b) => b.text.length - a.text.length);
  for (const c of order) {
    const w = writes[c.i] as StoredWrite;
    const { refs, parts: more } = prepareParts(tx, target, w.channel, c.text, refOf, k);
    k += more.length;
    parts.push(...more);
    writes[c.i] = { ...w, value: partsValue(w.value, refs) };
    const prepared = tryPrepare(tx, input);
    if (prepared !== undefined) return { prepared, parts };
  }
  throw new CheckpointValidationError(
    `LangGraph ${target.what} do not fit in one row of the store's maxPayloadBytes (${tx.limits.maxPayloadBytes}) even with every value in part rows; ` +
      'raise the limit, e.g. openSqliteStore(path, { limits: { maxPayloadBytes } })',
  );
}
