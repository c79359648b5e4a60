import { CheckpointValidationError } from '@session-checkpoint/core';

/**
 * The reference tokens of an RFC 6901 JSON pointer (`""` is the whole document).
 *
 * @throws CheckpointValidationError for a pointer that is not `""` and does not start with "/", or a bad "~" escape.
 * @example
 * ```ts
 * parsePointer('/a~1b/0'); // ['a/b', '0']
 * ```
 */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new CheckpointValidationError(`a JSON pointer must be empty or start with "/" (RFC 6901): ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~[^01]|~$/.test(token)) throw new CheckpointValidationError(`bad "~" escape in JSON pointer ${JSON.stringify(pointer)}`);
      return token.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/**
 * The value at an RFC 6901 pointer, or `{ found: false }` when the pointer names nothing (a
 * missing key, an index past the end, a step into a primitive).
 *
 * @example
 * ```ts
 * valueAtPointer({ a: [1, 2] }, '/a/1'); // { found: true, value: 2 }
 * ```
 */
export function valueAtPointer(document: unknown, pointer: string): { found: boolean; value?: unknown } {
  let at = document;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(at)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= at.length) return { found: false };
      at = at[Number(token)];
    } else if (typeof at === 'object' && at !== null && Object.hasOwn(at, token)) {
      at = (at as Record<string, unknown>)[token];
    } else return { found: false };
  }
  return { found: true, value: at };
}
