import { sha256Hex } from '@session-checkpoint/core';

/*
 * Source refs of the Mastra rows (one namespace): each read is an exact match or a prefix range of
 * the store's unique (namespace, source_ref) index.
 *
 *   t/<thread>                         the thread's current record
 *   m/<thread>/<created>/<seq>         a message's current version: <created> is its createdAt in
 *                                      milliseconds, zero-padded, then the insertion order, so a
 *                                      range read is the thread in Mastra's order
 *   i/<message>                        where the message lives (thread, row)
 *   c/<thread>/<seq>                   change <seq> of the thread's memory (the versions)
 *   r/<resource>                       a resource
 *   w/<workflow>/<run>                 a workflow run's current record
 *   s/<workflow>/<run>/<seq>           snapshot <seq> of the run (every persist, kept)
 *   p/<ref of the row>/<k>             part k of a row's value, when larger than a row
 *   l/<thread>                         a thread's lock row (adapters without transactionLock; never committed)
 *
 * Ids are escaped ("%" "/" "~" as %25 %2F %7E, C0 controls and DEL as %XX, lone surrogates as
 * %uXXXX); an id longer than 80 characters after escaping becomes "~" and 32 hex digits of its hash.
 */

const DIGITS = 16;
const MAX_ID = 80;
const NEEDS_ESCAPE = /[%/~\u0000-\u001f\u007f\ud800-\udfff]/;
const ESCAPED = /[%/~\u0000-\u001f\u007f]|[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]/g;

function escapeChar(c: string): string {
  if (c.length === 2) return c;
  const code = c.charCodeAt(0);
  return code >= 0xd800 ? `%u${code.toString(16).toUpperCase()}` : `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** An id as a ref part: escaped, or hashed when long. */
export function idPart(id: string): string {
  const escaped = NEEDS_ESCAPE.test(id) ? id.replace(ESCAPED, escapeChar) : id;
  return escaped.length <= MAX_ID ? escaped : `~${sha256Hex(escaped).slice(0, 32)}`;
}

/** A non-negative integer, zero-padded so refs sort numerically. */
export function pad(n: number): string {
  return String(Math.max(0, Math.trunc(n))).padStart(DIGITS, '0');
}

export const threadRef = (threadId: string): string => `t/${idPart(threadId)}`;
export const messagePrefix = (threadId: string): string => `m/${idPart(threadId)}/`;
export const messageRef = (threadId: string, createdAtMs: number, seq: number): string => `${messagePrefix(threadId)}${pad(createdAtMs)}/${pad(seq)}`;
export const messageIdRef = (messageId: string): string => `i/${idPart(messageId)}`;
export const changePrefix = (threadId: string): string => `c/${idPart(threadId)}/`;
export const changeRef = (threadId: string, seq: number): string => `${changePrefix(threadId)}${pad(seq)}`;
export const lockRef = (threadId: string): string => `l/${idPart(threadId)}`;
export const resourceRef = (resourceId: string): string => `r/${idPart(resourceId)}`;
export const runRef = (workflowName: string, runId: string): string => `w/${idPart(workflowName)}/${idPart(runId)}`;
export const snapshotPrefix = (workflowName: string, runId: string): string => `s/${idPart(workflowName)}/${idPart(runId)}/`;
export const snapshotRef = (workflowName: string, runId: string, seq: number): string => `${snapshotPrefix(workflowName, runId)}${pad(seq)}`;
export const partRef = (ref: string, k: number): string => `p/${ref}/${String(k).padStart(6, '0')}`;

/** The seq a ref ends with. */
export function seqOf(ref: string | null): number {
  return Number(ref?.slice(ref.lastIndexOf('/') + 1) ?? NaN);
}

/** The `session_id` of rows about `id` (a thread, a resource, a run): the id when the store takes it, else a hash. */
export function sessionOf(id: string): string {
  const wellFormed = (id as { isWellFormed?: () => boolean }).isWellFormed?.() ?? true;
  // A string of at most 512 UTF-16 units has at most 512 code points: counted only when longer.
  if (id !== '' && !/[\u0000-\u001f]/.test(id) && wellFormed && (id.length <= 512 || [...id].length <= 512)) return id;
  return `~${sha256Hex(idPart(id))}`;
}
