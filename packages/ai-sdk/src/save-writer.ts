import { CheckpointValidationError, utf8ByteLength, type CheckpointStore, type PreparedCheckpoint } from '@session-checkpoint/core';
import { PART_KIND, SAVE_KIND } from './rows/namespace.js';
import { partRef, saveRef, storedSessionId } from './rows/refs.js';
import type { PartPayload, SavePayload } from './rows/save-rows.js';

/** Room left in a row for the save's other fields and a part's wrapper. */
const ENVELOPE = 1024;
/**
 * Largest messages text kept in the save row itself. Every save reads the chat's newest save row
 * (its tip and count), verified; a save that added a long list (a chat imported or saved whole for
 * the first time) keeps its messages in part rows, so that read stays small.
 */
const INLINE_BYTES = 16 * 1024;

/** One save to write: the fields of its row, and the canonical text of each message it adds. */
export interface PlannedSave {
  namespace: string;
  chatId: string;
  save: number;
  keep: number;
  count: number;
  tip: string;
  /** The messages it adds, as JSON values, and their canonical texts (same order). */
  messages: unknown[];
  texts: string[];
}

/**
 * Cuts `text` into slices that each fit a part row of `maxBytes` (their JSON string escape
 * included), never between the two halves of a surrogate pair.
 */
function slices(text: string, maxBytes: number): string[] {
  const budget = maxBytes - ENVELOPE;
  if (budget < 64) throw new CheckpointValidationError(`the store's limits.maxPayloadBytes (${maxBytes}) is too small to hold a part of a chat save`);
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

/**
 * Writes one save in the caller's transaction: the save row with its messages, or, when they are
 * longer than 16 KiB or do not fit a row of the store's `maxPayloadBytes`, their JSON text cut over
 * part rows that the save row binds by SHA-256 (written first, so the save row is the last row of
 * the save).
 *
 * @throws CheckpointConflictError when another writer took the save number (the caller retries).
 */
export async function writeSave(tx: CheckpointStore, plan: PlannedSave): Promise<void> {
  const sessionId = storedSessionId(plan.chatId);
  const head: Omit<SavePayload, 'messages' | 'parts'> = { chatId: plan.chatId, save: plan.save, keep: plan.keep, count: plan.count, tip: plan.tip };
  const bytes = plan.texts.reduce((sum, t) => sum + utf8ByteLength(t) + 1, 2);
  const base = { namespace: plan.namespace, sessionId, name: `save ${plan.save}` };
  if (bytes <= INLINE_BYTES && bytes + ENVELOPE + utf8ByteLength(plan.chatId) * 2 <= tx.limits.maxPayloadBytes) {
    await tx.create({ ...base, kind: SAVE_KIND, payload: { ...head, messages: plan.messages }, sourceRef: saveRef(plan.chatId, plan.save) });
    return;
  }
  const rows: PreparedCheckpoint[] = [];
  const pieces = slices(`[${plan.texts.join(',')}]`, tx.limits.maxPayloadBytes);
  for (let k = 0; k < pieces.length; k++) {
    const payload: PartPayload = { part: k, text: pieces[k] as string };
    rows.push(tx.prepare({ ...base, name: `save ${plan.save} part ${k}`, kind: PART_KIND, payload, sourceRef: partRef(plan.chatId, plan.save, k) }));
  }
  const parts = rows.map((row) => row.payloadSha256);
  rows.push(tx.prepare({ ...base, kind: SAVE_KIND, payload: { ...head, parts }, sourceRef: saveRef(plan.chatId, plan.save) }));
  // The parts and the save row in one multi-row insert (one statement per 100 rows on SQL stores).
  await tx.insertPreparedMany(rows);
}
