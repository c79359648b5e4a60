import { utf8ByteLength } from '@session-checkpoint/core';

/*
 * A value too large for its checkpoint row is stored as its JSON text (or base64), cut into
 * slices, one ordinary row each (kind `langgraph.part`, payload `{..., text}`), every slice's row
 * within the store's payload limit. The checkpoint row lists the parts with their rows' payload
 * SHA-256, so a missing, swapped or altered part is caught on read.
 */

/** Bytes of a part row besides its text: ids, field names, escaping slack. */
export const PART_OVERHEAD = 2048;

/**
 * Cuts `text` into slices whose JSON string form (quotes and backslashes escaped, UTF-8) is at
 * most `budget` bytes, never between the two halves of a surrogate pair.
 *
 * @example
 * ```ts
 * splitText('abcdef', 4); // ['ab', 'cd', 'ef'] (each slice plus its two quotes is 4 bytes)
 * ```
 */
export function splitText(text: string, budget: number): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    let len = Math.min(text.length - at, Math.max(1, budget - 2));
    for (;;) {
      let end = at + len;
      // Never end on a high surrogate: its low half would start the next slice alone.
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) && len > 1) end--;
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

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** UTF-8 bytes of a JSON value's text, without building a second copy beyond the text itself. */
export function jsonBytes(value: unknown): number {
  return utf8ByteLength(JSON.stringify(value) ?? 'null');
}
