import { utf8ByteLength } from '@session-checkpoint/core';

/*
 * A value too large for its row is cut into slices, one ordinary row each (kind `langgraph.part`),
 * every slice's row within the store's payload limit. A list (or an object whose bulk is one list,
 * such as DeltaChannel's snapshot) is cut between its items, each part holding a slice of them as
 * JSON (`{..., items}`): read back, the part rows' payloads are already the items, parsed once. Any
 * other value is cut as its JSON text (or base64), each part holding a slice of it as a string
 * (`{..., text}`), which is escaped inside the row and parsed again after joining. The row that
 * owns the value lists the parts with their rows' payload SHA-256, so a missing, swapped or
 * altered part is caught on read.
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

/**
 * Cuts `items` into consecutive slices whose JSON array form (UTF-8, as `JSON.stringify` writes
 * it) is at most `budget` bytes each, or `undefined` when one item alone is over it (the caller
 * then cuts the value's text instead). `sizes` are the items' {@link jsonBytes}, when known.
 *
 * @example
 * ```ts
 * splitItems(['aa', 'bb', 'cc'], 12); // [['aa', 'bb'], ['cc']] (["aa","bb"] is 11 bytes)
 * ```
 */
export function splitItems(items: readonly unknown[], budget: number, sizes: readonly number[] = items.map(jsonBytes)): unknown[][] | undefined {
  const out: unknown[][] = [];
  let slice: unknown[] = [];
  let bytes = 2; // the brackets
  for (let i = 0; i < items.length; i++) {
    const size = (sizes[i] as number) + 1; // and its comma
    if (size + 2 > budget) return undefined;
    if (bytes + size > budget) {
      out.push(slice);
      slice = [];
      bytes = 2;
    }
    slice.push(items[i]);
    bytes += size;
  }
  if (slice.length > 0) out.push(slice);
  return out;
}
