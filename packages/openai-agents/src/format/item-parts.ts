import { CheckpointIntegrityError, utf8ByteLength, type Checkpoint as StoredRow } from '@session-checkpoint/core';

/*
 * An item too large for one row (a tool returning megabytes, a screenshot as a data URL) is cut
 * over part rows (kind `openai-agents.part`): its JSON text in slices, each slice one row's
 * `text`, every part row within the store's payload limit. The item's own row holds `null` in its
 * place and the SHA-256 of each part row's payload, in order, so a missing, swapped, reordered or
 * altered part is caught on read; parts live under `oa/<session>/p/<seq>/<k>`, next to their row.
 * (The LangGraph saver cuts its large values the same way; the two packages share no code.)
 */

/** Row kind of one slice of a large item's JSON text. */
export const PART_KIND = 'openai-agents.part';

/** Bytes of a part row besides its text: the `part` and `text` keys, escaping slack. */
export const PART_OVERHEAD = 1024;

/**
 * The payload of a part row: its number and its slice of the item's JSON text.
 *
 * @example
 * ```ts
 * { part: 0, text: '{"type":"function_call_result","output":"AAAA…' }
 * ```
 */
export interface PartPayload {
  part: number;
  text: string;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Cuts `text` into slices whose JSON string form (quotes and escapes, UTF-8) is at most `budget`
 * bytes, never between the two halves of a surrogate pair.
 *
 * @example
 * ```ts
 * splitText('abcdef', 4); // ['ab', 'cd', 'ef'] (each slice plus its two quotes is 4 bytes)
 * ```
 */
export function splitText(text: string, budget: number): string[] {
  const out: string[] = [];
  let at = 0;
  // Most text is ASCII without escapes: start from a slice of `budget` characters and shrink it in
  // proportion until its JSON form fits, then start full-sized again for the next slice.
  let len = Math.max(1, budget - 2);
  while (at < text.length) {
    len = Math.min(text.length - at, Math.max(len, 1));
    for (;;) {
      let end = at + len;
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) && len > 1) end--;
      const slice = text.slice(at, end);
      const bytes = utf8ByteLength(JSON.stringify(slice));
      if (bytes <= budget || end - at <= 1) {
        out.push(slice);
        at = end;
        len = Math.max(1, budget - 2);
        break;
      }
      len = Math.max(1, Math.min(len - 1, Math.floor((len * budget) / bytes)));
    }
  }
  return out;
}

/**
 * The JSON text of an item joined from its part rows (`rows` in any order), each checked against
 * the SHA-256 its item row recorded.
 *
 * @throws CheckpointIntegrityError naming the item row when a part is missing, altered or not a part.
 */
export function joinParts(shas: readonly string[], refOf: (k: number) => string, rows: ReadonlyMap<string, StoredRow>, owner: string): string {
  let text = '';
  shas.forEach((sha, k) => {
    const row = rows.get(refOf(k));
    const fail = (problem: string): CheckpointIntegrityError => new CheckpointIntegrityError(`${owner}: part ${k} ${problem}; the store was changed outside this package`);
    if (!row) throw fail('is missing');
    if (row.kind !== PART_KIND) throw fail(`is a row of kind ${row.kind}`);
    if (row.payloadSha256 !== sha) throw fail('is not the one stored (SHA-256 differs)');
    const payload = row.payload as Partial<PartPayload>;
    if (payload.part !== k || typeof payload.text !== 'string') throw fail('is not a part payload');
    text += payload.text;
  });
  return text;
}
