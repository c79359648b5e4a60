import { CheckpointIntegrityError, type Checkpoint, type CheckpointStore } from '@session-checkpoint/core';
import { KINDS } from './namespace.js';
import { partRef } from './refs.js';

/**
 * A row's value: `{ ...fields, value }` inline, or `{ ...fields, parts: [sha256, ...] }` when the
 * value's JSON text is larger than a row, cut over part rows (`{ part: k, text }`) that the row
 * binds by their payload SHA-256. Reads join the parts and fail closed on any that is missing,
 * altered or out of place.
 */
export interface ValuePayload {
  value?: unknown;
  parts?: string[];
}

/**
 * The values of verified rows, in order, joining part rows with one lookup for the batch.
 *
 * @throws CheckpointIntegrityError naming the row when a part is missing or altered.
 */
export async function valuesOf(store: CheckpointStore, namespace: string, rows: readonly Checkpoint[]): Promise<unknown[]> {
  // Rows all inline (a page of messages): their values in one pass, with no lookup to build.
  if (rows.every((row) => (row.payload as ValuePayload).parts === undefined)) return rows.map(inlineValue);
  const refs = rows.flatMap((row) => ((row.payload as ValuePayload).parts ?? []).map((_, k) => partRef(row.sourceRef ?? '', k)));
  const parts = new Map((refs.length === 0 ? [] : await store.findBySourceRefs(namespace, refs)).map((r) => [r.sourceRef, r]));
  return rows.map((row) => {
    const p = row.payload as ValuePayload;
    if (p.parts === undefined) return inlineValue(row);
    let text = '';
    p.parts.forEach((sha, k) => {
      const part = parts.get(partRef(row.sourceRef ?? '', k));
      const payload = part?.payload as { part?: unknown; text?: unknown } | undefined;
      if (part === undefined || part.kind !== KINDS.part || part.payloadSha256 !== sha || payload?.part !== k || typeof payload.text !== 'string') {
        throw new CheckpointIntegrityError(`row ${row.id} (${String(row.sourceRef)}): part ${k} is missing or altered`, { failures: [{ id: row.id, reason: `part ${k} missing or altered` }] });
      }
      text += payload.text;
    });
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new CheckpointIntegrityError(`row ${row.id} (${String(row.sourceRef)}): its parts do not join into JSON`, { failures: [{ id: row.id, reason: 'parts are not JSON' }] });
    }
  });
}

/** The value of a row that holds it inline. */
function inlineValue(row: Checkpoint): unknown {
  const p = row.payload as ValuePayload;
  if (!('value' in p)) throw new CheckpointIntegrityError(`row ${row.id} (${String(row.sourceRef)}) holds no value`, { failures: [{ id: row.id, reason: 'no value' }] });
  return p.value;
}
