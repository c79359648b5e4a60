import { CheckpointValidationError, sha256Hex } from '@session-checkpoint/core';

/*
 * Every row of a session carries a source ref that says where it belongs, so that each read is one
 * exact match or one prefix range of the store's unique (namespace, source_ref) index:
 *
 *   oa/<session>/i/<seq>           one batch of history items; <seq>, the position of its first
 *                                  item, is zero-padded, so refs sort like positions
 *   oa/<session>/op/<operationId>  one applied history transaction (its idempotency record)
 *
 * The newest `limit` items are a descending range read of the newest rows, whatever the history's
 * length. Two writers that pick the same seq collide on the unique index instead of interleaving.
 * Parts are escaped ("%" "/" "~" as %25 %2F %7E) so that no part runs into the next; a part longer
 * than its share of the 256-character cap becomes "~" and a hash of it (exact, no longer readable).
 */

/** Digits of a seq: 2^53 has 16, so every safe integer fits and refs sort numerically. */
const SEQ_DIGITS = 16;
/** Longest escaped part kept readable; the sum stays within the 256-character cap. */
const MAX_PART = { session: 160, operation: 80 } as const;

function part(value: string, max: number): string {
  const escaped = /[%/~]/.test(value) ? value.replace(/%/g, '%25').replace(/\//g, '%2F').replace(/~/g, '%7E') : value;
  return escaped.length <= max ? escaped : `~${sha256Hex(value).slice(0, 32)}`;
}

/** Prefix of every row of one session (items and operation records). */
export function sessionPrefix(sessionId: string): string {
  return `oa/${part(sessionId, MAX_PART.session)}/`;
}

/** Prefix of the item rows of one session. */
export function itemPrefix(sessionId: string): string {
  return `${sessionPrefix(sessionId)}i/`;
}

/** The ref of the item at `seq` (a positive safe integer). */
export function itemRef(sessionId: string, seq: number): string {
  return `${itemPrefix(sessionId)}${String(seq).padStart(SEQ_DIGITS, '0')}`;
}

/** The seq an item ref ends with. */
export function seqOfRef(ref: string | null): number {
  const seq = Number(ref?.slice(ref.lastIndexOf('/') + 1));
  if (!Number.isSafeInteger(seq) || seq < 1) throw new CheckpointValidationError(`not an openai-agents item source ref: ${String(ref)}`);
  return seq;
}

/** The ref of the record of one applied history transaction. */
export function operationRef(sessionId: string, operationId: string): string {
  return `${sessionPrefix(sessionId)}op/${part(operationId, MAX_PART.operation)}`;
}
