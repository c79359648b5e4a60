import { CheckpointValidationError, sha256Hex } from '@session-checkpoint/core';

/*
 * Every row of a chat carries a source ref that says where it belongs, so each read is one exact
 * match or one prefix range of the store's unique (namespace, source_ref) index:
 *
 *   chat/<chat>/s/<save>        one save (a checkpoint of the chat); <save> is zero-padded, so
 *                               refs sort like saves and the newest is one descending read
 *   chat/<chat>/p/<save>/<k>    part k of that save's messages text, when it is larger than a row
 *
 * Two writers that pick the same save number collide on the unique index; the loser retries. The
 * chat id is escaped ("%" "/" "~" as %25 %2F %7E, a C0 control character or DEL as %XX, a lone
 * surrogate as %uXXXX) so no id runs into the next part; an id longer than 160 characters after
 * escaping becomes "~" and 32 hex digits of its SHA-256.
 */

/** Digits of a save number: every safe integer fits, so refs sort numerically. */
const SAVE_DIGITS = 16;
/** Digits of a part number. */
const PART_DIGITS = 6;
/** Longest escaped chat id kept readable in a ref (the ref cap is 256 characters). */
const MAX_CHAT_PART = 160;

const NEEDS_ESCAPE = /[%/~\u0000-\u001f\u007f\ud800-\udfff]/;
const ESCAPED = /[%/~\u0000-\u001f\u007f]|[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]/g;

function escapeChar(c: string): string {
  if (c.length === 2) return c; // a surrogate pair is an ordinary character
  const code = c.charCodeAt(0);
  return code >= 0xd800 ? `%u${code.toString(16).toUpperCase()}` : `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** `value` with the separators, control characters and lone surrogates escaped (reversible). */
export function escapeText(value: string): string {
  return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, escapeChar) : value;
}

/** Prefix of every row of one chat. */
export function chatPrefix(chatId: string): string {
  const escaped = escapeText(chatId);
  return `chat/${escaped.length <= MAX_CHAT_PART ? escaped : `~${sha256Hex(escaped).slice(0, 32)}`}/`;
}

/** Prefix of the save rows of one chat. */
export function savePrefix(chatId: string): string {
  return `${chatPrefix(chatId)}s/`;
}

/** The ref of save `save` (a positive safe integer). */
export function saveRef(chatId: string, save: number): string {
  return `${savePrefix(chatId)}${String(save).padStart(SAVE_DIGITS, '0')}`;
}

/** The ref of part `k` of save `save`. */
export function partRef(chatId: string, save: number, k: number): string {
  return `${chatPrefix(chatId)}p/${String(save).padStart(SAVE_DIGITS, '0')}/${String(k).padStart(PART_DIGITS, '0')}`;
}

/** The save number a save ref ends with. */
export function saveOfRef(ref: string | null): number {
  const tail = ref?.slice(ref.lastIndexOf('/') + 1) ?? '';
  const save = /^\d{1,16}$/.test(tail) ? Number(tail) : NaN;
  if (!Number.isSafeInteger(save) || save < 1) throw new CheckpointValidationError(`not an ai-sdk save source ref: ${String(ref)}`);
  return save;
}

/**
 * The `session_id` a chat's rows carry: the chat id when the store's rule takes it (at most 512
 * code points, no control character, no lone surrogate), else `~` and the SHA-256 of its escaped
 * form. Rows are found by source ref; this column names the chat for the store's own tools.
 */
export function storedSessionId(chatId: string): string {
  const wellFormed = (chatId as { isWellFormed?: () => boolean }).isWellFormed?.() ?? true;
  if (chatId !== '' && !/[\u0000-\u001f]/.test(chatId) && wellFormed && [...chatId].length <= 512) return chatId;
  return `~${sha256Hex(escapeText(chatId))}`;
}
