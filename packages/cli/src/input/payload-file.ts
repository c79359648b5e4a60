import { canonicalizeJson, CheckpointValidationError, isCheckpointValidationError, type CheckpointLimits } from '@session-checkpoint/core';
import { readInputText } from './read-input-text.js';

/** JSON whitespace, as json.loads skips it (not every Unicode space). */
const LEADING_JSON_SPACE = /^[ \t\r\n]*/u;

/**
 * Requires JSON text whose top level is an object, checking in the reference's order: a syntax
 * error is reported first (`Expecting value: ...`), then `<label> must contain a JSON object`.
 * Object texts are not parsed here; `CheckpointStore.prepare` parses them once.
 *
 * @throws CheckpointValidationError
 * @example
 * ```ts
 * requireJsonObjectText('[1, 2]', 'payload-file', 1000); // throws "payload-file must contain a JSON object"
 * ```
 */
export function requireJsonObjectText(text: string, label: string, maxDepth: number): void {
  const start = LEADING_JSON_SPACE.exec(text)?.[0].length ?? 0;
  if (text[start] === '{') return;
  try {
    canonicalizeJson(text, { maxDepth });
  } catch (error) {
    // Syntax and depth errors win; NaN or a lone surrogate inside a non-object does not matter.
    if (!(isCheckpointValidationError(error) && error.message.startsWith('payload is not valid JSON'))) throw error;
  }
  throw new CheckpointValidationError(`${label} must contain a JSON object`);
}

/**
 * Reads a payload file (`-` for standard input): at most `maxPayloadFileBytes` bytes, strict
 * UTF-8, top level an object. Returns the text unchanged, so number lexemes reach the
 * canonicaliser exactly as written.
 *
 * @example
 * ```ts
 * const text = await readPayloadFile('state.json', DEFAULT_LIMITS);
 * store.prepare({ sessionId: 's', payloadJson: text });
 * ```
 */
export async function readPayloadFile(path: string, limits: Pick<CheckpointLimits, 'maxPayloadFileBytes' | 'maxDepth'>): Promise<string> {
  const text = await readInputText(path, { maxBytes: limits.maxPayloadFileBytes, label: 'payload-file' });
  requireJsonObjectText(text, 'payload-file', limits.maxDepth);
  return text;
}
