/** Canonicalisation of JSON text, keeping number lexemes exactly as written. */
import { CheckpointValidationError } from '../errors.js';
import { codePointOffset } from './code-points.js';
import { loneSurrogateError, OUT_OF_RANGE_MESSAGE } from './decode-errors.js';
import { LONE_SURROGATE_MARK, NON_FINITE_MARK, scanJson, type ScanResult } from './canonical-writer.js';
import { resolveMaxDepth, type CanonicalizeOptions } from './options.js';

/**
 * The error Python would raise after parsing, if any: `json.dumps` rejecting NaN/Infinity first,
 * then the UTF-8 encoding rejecting a lone surrogate (reported at its code point position in the
 * canonical text, the position Python's `UnicodeEncodeError` names). Only values that survived
 * duplicate-key elimination count, which is why the scanner leaves markers in the text.
 *
 * @example
 * ```ts
 * findDeferredError(scanJson('[NaN]', 1000))?.message; // 'payload is not valid JSON: Out of range float ...'
 * findDeferredError(scanJson('{"a":NaN,"a":1}', 1000)); // undefined (the NaN was dropped)
 * ```
 */
export function findDeferredError(result: ScanResult): CheckpointValidationError | undefined {
  const { json } = result;
  if (result.maybeNonFinite && json.includes(NON_FINITE_MARK)) return new CheckpointValidationError(OUT_OF_RANGE_MESSAGE);
  if (result.maybeLoneSurrogate) {
    const index = json.indexOf(LONE_SURROGATE_MARK);
    if (index !== -1) return loneSurrogateError(json.charCodeAt(index + 1), codePointOffset(json, index));
  }
  return undefined;
}

/**
 * Canonicalises JSON text: the exact equivalent of Python's
 * `json.dumps(json.loads(text), ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)`.
 * Integers are kept exactly as written (any length; `-0` becomes `0`), floats are printed like
 * Python's `float.__repr__`, keys are sorted by code point and the last duplicate wins.
 * Any JSON value is accepted at the top level (use the payload helpers to require an object).
 *
 * Deliberate differences to Python: integers longer than 4300 digits are accepted; lone
 * surrogates are a validation error (Python crashes while encoding); nesting deeper than
 * `maxDepth` (default 1000, the top-level container counting as 1) is a validation error.
 *
 * @throws CheckpointValidationError with CPython's exact message for syntax errors (e.g.
 *   `Expecting ',' delimiter: line 1 column 8 (char 7)`), `payload is not valid JSON: ...` for
 *   NaN/Infinity and lone surrogates, or the depth message.
 * @example
 * ```ts
 * canonicalizeJson('{"b": 1e2, "a": [12345678901234567890, -0]}');
 * // '{"a":[12345678901234567890,0],"b":100.0}'
 * ```
 */
export function canonicalizeJson(text: string, options?: CanonicalizeOptions): string {
  if (typeof text !== 'string') throw new CheckpointValidationError('JSON text must be a string');
  const result = scanJson(text, resolveMaxDepth(options?.maxDepth));
  const deferred = findDeferredError(result);
  if (deferred) throw deferred;
  return result.json;
}
