import { utf8ByteLength } from '@session-checkpoint/core';
export { checkRows, type CheckedRow } from '@session-checkpoint/core/internal';

/** UTF-8 bytes of a stored payload text (0 for a damaged column that holds no text). */
export function utf8Length(text: unknown): number {
  return typeof text === 'string' ? utf8ByteLength(text) : 0;
}
