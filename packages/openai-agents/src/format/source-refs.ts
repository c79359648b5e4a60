import { CheckpointValidationError, sha256Hex } from '@session-checkpoint/core';

/*
 * Every row of a session carries a source ref that says where it belongs, so that each read is one
 * exact match or one prefix range of the store's unique (namespace, source_ref) index:
 *
 *   oa/<session>/i/<seq>           one batch of history items; <seq>, the position of its first
 *                                  item, is zero-padded, so refs sort like positions
 *   oa/<session>/p/<seq>/<k>       part k of the one item of the row at <seq>, when that item is
 *                                  larger than a row (see item-parts.ts)
 *   oa/<session>/op/<operationId>  one applied history transaction (its idempotency record)
 *
 * The newest `limit` items are a descending range read of the newest rows, whatever the history's
 * length. Two writers that pick the same seq collide on the unique index instead of interleaving.
 * Parts are escaped ("%" "/" "~" as %25 %2F %7E; a C0 control character or DEL as %XX; a lone
 * surrogate as %uXXXX) so that no part runs into the next and every ref is text any store keeps
 * (PostgreSQL refuses NUL, UTF-8 has no lone surrogates); a part longer than its share of the
 * 256-character cap becomes "~" and a hash of it (exact, no longer readable).
 */

/** The store namespace sessions live in unless told otherwise (the session's `DEFAULT_NAMESPACE`). */
export const AGENTS_NAMESPACE = 'openai-agents';

/** Digits of a seq: 2^53 has 16, so every safe integer fits and refs sort numerically. */
const SEQ_DIGITS = 16;
/** Digits of a part number. */
const PART_DIGITS = 6;
/** Longest escaped part kept readable; the sum stays within the 256-character cap. */
const MAX_PART = { session: 160, operation: 80 } as const;

/** Characters a ref part escapes: the separators, C0 controls, DEL and surrogates (pairs are restored below). */
const NEEDS_ESCAPE = /[%/~\u0000-\u001f\u007f\ud800-\udfff]/;
const ESCAPED = /[%/~\u0000-\u001f\u007f]|[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]/g;

function escapeChar(c: string): string {
  if (c.length === 2) return c; // a surrogate pair: an ordinary character
  const code = c.charCodeAt(0);
  return code >= 0xd800 ? `%u${code.toString(16).toUpperCase()}` : `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
}

/**
 * `value` with every character a ref or a row name cannot hold written as `%XX` / `%uXXXX`, and
 * "%" "/" "~" escaped too, so the escape is reversible and never collides.
 *
 * @example
 * ```ts
 * escapeText('a/b\u0000'); // 'a%2Fb%00'
 * ```
 */
export function escapeText(value: string): string {
  return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, escapeChar) : value;
}

/** A lone surrogate: a high half not followed by a low one, or a low half not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `value` has a lone surrogate (UTF-8 cannot hold it; canonical JSON refuses it). */
export function hasLoneSurrogate(value: string): boolean {
  // String.prototype.isWellFormed (Node 20+) is a native scan; the pattern is for older engines.
  const native = (value as { isWellFormed?: () => boolean }).isWellFormed;
  return native === undefined ? LONE_SURROGATE.test(value) : !native.call(value);
}

function part(value: string, max: number): string {
  const escaped = escapeText(value);
  if (escaped.length <= max) return escaped;
  // Hash the escaped form when the value holds a lone surrogate: a hash of the raw text would see
  // every lone surrogate as U+FFFD. Other values hash as they always did, so their refs stay put.
  return `~${sha256Hex(hasLoneSurrogate(value) ? escaped : value).slice(0, 32)}`;
}

/** Prefix of every row of one session (items, parts and operation records). */
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

/** The ref of part `k` of the item row at `seq`. */
export function partRef(sessionId: string, seq: number, k: number): string {
  return `${sessionPrefix(sessionId)}p/${String(seq).padStart(SEQ_DIGITS, '0')}/${String(k).padStart(PART_DIGITS, '0')}`;
}

/** The seq an item ref ends with. */
export function seqOfRef(ref: string | null): number {
  const tail = ref?.slice(ref.lastIndexOf('/') + 1) ?? '';
  const seq = /^\d{1,16}$/.test(tail) ? Number(tail) : NaN;
  if (!Number.isSafeInteger(seq) || seq < 1) throw new CheckpointValidationError(`not an openai-agents item source ref: ${String(ref)}`);
  return seq;
}

/** The ref of the record of one applied history transaction. */
export function operationRef(sessionId: string, operationId: string): string {
  return `${sessionPrefix(sessionId)}op/${part(operationId, MAX_PART.operation)}`;
}

/** Most code points of a store session id (the store's `session_id` rule). */
const MAX_SESSION_ID = 512;

/**
 * The `session_id` the session's rows carry: the session id itself when the store can hold it (at
 * most 512 code points, no control characters, no lone surrogates), else `~` and the SHA-256 of
 * its escaped form. The rows are found by source ref, never by this column; it names the session
 * for the store's own tools (`sessions`, the CLI).
 *
 * @example
 * ```ts
 * storedSessionId('user-42'); // 'user-42'
 * storedSessionId('a\u0000b'); // '~3f1c…' (64 hex digits)
 * ```
 */
export function storedSessionId(sessionId: string): string {
  if (!/[\u0000-\u001f]/.test(sessionId) && !hasLoneSurrogate(sessionId) && [...sessionId].length <= MAX_SESSION_ID) return sessionId;
  return `~${sha256Hex(escapeText(sessionId))}`;
}
