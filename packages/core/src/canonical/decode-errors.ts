/**
 * Error construction for the canonicaliser: Python-compatible decode messages (so the CLI prints
 * exactly what the reference prints) and the payload-level messages of the reference.
 */
import { CheckpointValidationError } from '../errors.js';
import { codePointOffset, unitEscape } from './code-points.js';

/** Python's message for NaN/±Infinity, prefixed the way the reference reports `json.dumps` failures. */
export const OUT_OF_RANGE_MESSAGE = 'payload is not valid JSON: Out of range float values are not JSON compliant';

/**
 * Message for nesting deeper than the configured limit (Python crashes with RecursionError instead).
 *
 * @example
 * ```ts
 * depthMessage(1000); // 'payload nesting exceeds the maximum depth of 1000'
 * ```
 */
export function depthMessage(maxDepth: number): string {
  return `payload nesting exceeds the maximum depth of ${maxDepth}`;
}

/**
 * Builds Python's `JSONDecodeError` text: `msg: line L column C (char P)`, all counted in code
 * points like CPython, with no prefix (the reference CLI prints it as is).
 *
 * @example
 * ```ts
 * decodeError('Extra data', '{} x', 3).message; // 'Extra data: line 1 column 4 (char 3)'
 * ```
 */
export function decodeError(msg: string, text: string, index: number): CheckpointValidationError {
  const pos = codePointOffset(text, index);
  const lastNewline = text.lastIndexOf('\n', index - 1);
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  // Python: colno = pos - doc.rfind('\n', 0, pos); rfind gives -1 when there is no newline.
  const column = lastNewline === -1 || index === 0 ? pos + 1 : pos - codePointOffset(text, lastNewline);
  return new CheckpointValidationError(`${msg}: line ${line} column ${column} (char ${pos})`);
}

/**
 * The deliberate difference to Python for lone surrogates: Python accepts them while parsing and
 * crashes with `UnicodeEncodeError` when encoding; we reject with a validation error naming the
 * unit and its code-point position.
 *
 * @example
 * ```ts
 * loneSurrogateError(0xd800, 6).message; // "payload is not valid JSON: lone surrogate '\\ud800' at position 6"
 * ```
 */
export function loneSurrogateError(unit: number, position: number): CheckpointValidationError {
  return new CheckpointValidationError(`payload is not valid JSON: lone surrogate '${unitEscape(unit)}' at position ${position}`);
}
