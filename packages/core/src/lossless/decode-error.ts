/**
 * Python `json.JSONDecodeError` messages: `msg: line L column C (char P)`, where positions count
 * code points (Python `str` indices), not UTF-16 units. Computed only when an error is thrown, so a
 * plain scan is fine.
 */
import { CheckpointValidationError } from '../errors.js';

/** Code points in `text.slice(0, end)`; a surrogate pair counts once, a lone surrogate once. */
function codePoints(text: string, end: number): number {
  let count = 0;
  for (let i = 0; i < end; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < end) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * The error Python's `json.loads` raises at UTF-16 index `index` of `text`, as a
 * `CheckpointValidationError` with Python's exact text.
 *
 * @example
 * ```ts
 * jsonDecodeError('Expecting value', '[1,]', 3).message; // 'Expecting value: line 1 column 4 (char 3)'
 * ```
 */
export function jsonDecodeError(msg: string, text: string, index: number): CheckpointValidationError {
  const pos = codePoints(text, index);
  let line = 1;
  let lastNewline = -1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    line++;
    lastNewline = i;
  }
  // Python: colno = pos - doc.rfind('\n', 0, pos), with rfind giving -1 when there is none.
  const column = lastNewline === -1 ? pos + 1 : pos - codePoints(text, lastNewline);
  return new CheckpointValidationError(`${msg}: line ${line} column ${column} (char ${pos})`);
}
