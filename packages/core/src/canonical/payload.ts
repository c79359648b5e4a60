/**
 * Payload helpers: a checkpoint payload is a JSON object whose canonical text, SHA-256 and UTF-8
 * size are stored together (Python reference, section 5).
 */
import { CheckpointValidationError, isCheckpointValidationError } from '../errors.js';
import { sha256Hex, utf8ByteLength } from '../sha256.js';
import { isCanonicalObjectText } from './canonical-validator.js';
import { findDeferredError } from './canonicalize-json.js';
import { canonicalize } from './canonicalize-value.js';
import { depthMessage } from './decode-errors.js';
import { scanJson } from './canonical-writer.js';
import { resolveMaxDepth, resolveMaxPayloadBytes } from './options.js';
import type { PayloadLimits } from './options.js';
import { isJsonObject } from './plain-object.js';

export type { PayloadLimits } from './options.js';

/** A canonical payload, ready to store. */
export interface CanonicalPayload {
  /** The canonical JSON text (what is stored). */
  json: string;
  /** Lowercase hex SHA-256 of the UTF-8 bytes of `json`. */
  sha256: string;
  /** UTF-8 byte length of `json`. */
  bytes: number;
}

const NOT_AN_OBJECT = 'payload must be a JSON object';

function sizeMessage(maxPayloadBytes: number): string {
  return `payload exceeds the ${maxPayloadBytes}-byte carrier limit`;
}

/** Size check and hash of an already canonical text. */
function finish(json: string, maxPayloadBytes: number): CanonicalPayload {
  const bytes = utf8ByteLength(json);
  if (bytes > maxPayloadBytes) throw new CheckpointValidationError(sizeMessage(maxPayloadBytes));
  return { json, sha256: sha256Hex(json), bytes };
}

/**
 * Canonical payload from JSON text, keeping number lexemes exactly (`12345678901234567890` stays
 * exact). The order of checks is the reference's: syntax (CPython's message, no prefix) and depth,
 * then `payload must be a JSON object`, then NaN/Infinity and lone surrogates
 * (`payload is not valid JSON: ...`), then the size of the canonical text
 * (`payload exceeds the 1048576-byte carrier limit`). Limits default to {@link DEFAULT_LIMITS}.
 *
 * @throws CheckpointValidationError for every rejected input.
 * @example
 * ```ts
 * const p = canonicalPayloadFromJson('{ "b": 1, "a": 1e2 }');
 * p.json;  // '{"a":100.0,"b":1}'
 * p.bytes; // 17
 * ```
 */
export function canonicalPayloadFromJson(text: string, limits?: PayloadLimits): CanonicalPayload {
  const maxDepth = resolveMaxDepth(limits?.maxDepth);
  const maxPayloadBytes = resolveMaxPayloadBytes(limits?.maxPayloadBytes);
  if (typeof text !== 'string') throw new CheckpointValidationError('payload JSON text must be a string');
  const result = scanJson(text, maxDepth);
  if (!result.topLevelObject) throw new CheckpointValidationError(NOT_AN_OBJECT);
  const deferred = findDeferredError(result);
  if (deferred) throw deferred;
  return finish(result.json, maxPayloadBytes);
}

/**
 * Canonical payload from a JavaScript object (see {@link canonicalize} for what values are
 * accepted and how numbers print). The value must be a plain object (`payload must be a JSON
 * object` otherwise); the canonical text must fit `maxPayloadBytes` (default 1048576) UTF-8 bytes.
 *
 * @throws CheckpointValidationError for every rejected input.
 * @example
 * ```ts
 * canonicalPayloadFromValue({ z: 1, a: [true, null] }).json; // '{"a":[true,null],"z":1}'
 * ```
 */
export function canonicalPayloadFromValue(value: unknown, limits?: PayloadLimits): CanonicalPayload {
  const maxDepth = resolveMaxDepth(limits?.maxDepth);
  const maxPayloadBytes = resolveMaxPayloadBytes(limits?.maxPayloadBytes);
  if (!isJsonObject(value)) throw new CheckpointValidationError(NOT_AN_OBJECT);
  return finish(canonicalize(value, { maxDepth }), maxPayloadBytes);
}

/**
 * Read-path verification of a stored payload: returns `undefined` when `text` is exactly the
 * canonical text of a JSON object within the limits and hashes to `sha256` (lowercase hex, compared
 * exactly), otherwise a short reason: `payload hash mismatch`, `invalid JSON`,
 * `payload is not a JSON object`, `payload is not canonical`,
 * `payload nesting exceeds the maximum depth of N` or `payload exceeds the N-byte carrier limit`.
 * Never throws (a bad `limits` value is returned as the reason). The hash is checked first, then a
 * single allocation-free scan confirms canonical form; only failures pay for a full parse.
 *
 * @example
 * ```ts
 * checkStoredPayload('{"a":1}', sha256Hex('{"a":1}'));   // undefined
 * checkStoredPayload('{"a": 1}', sha256Hex('{"a": 1}')); // 'payload is not canonical'
 * ```
 */
export function checkStoredPayload(text: string, sha256: string, limits?: PayloadLimits): string | undefined {
  try {
    const maxDepth = resolveMaxDepth(limits?.maxDepth);
    const maxPayloadBytes = resolveMaxPayloadBytes(limits?.maxPayloadBytes);
    if (typeof text !== 'string') return 'invalid JSON';
    if (typeof sha256 !== 'string' || sha256Hex(text) !== sha256) return 'payload hash mismatch';
    if (isCanonicalObjectText(text, maxDepth)) {
      return utf8ByteLength(text) > maxPayloadBytes ? sizeMessage(maxPayloadBytes) : undefined;
    }
    return explainNonCanonical(text, maxDepth, maxPayloadBytes);
  } catch (error) {
    return error instanceof Error ? error.message : 'invalid JSON';
  }
}

/** Slow path of {@link checkStoredPayload}: why the text is not an acceptable canonical object. */
function explainNonCanonical(text: string, maxDepth: number, maxPayloadBytes: number): string | undefined {
  let result;
  try {
    result = scanJson(text, maxDepth);
  } catch (error) {
    if (isCheckpointValidationError(error) && error.message === depthMessage(maxDepth)) return error.message;
    return 'invalid JSON';
  }
  if (!result.topLevelObject) return 'payload is not a JSON object';
  if (findDeferredError(result)) return 'invalid JSON';
  if (result.json !== text) return 'payload is not canonical';
  // Only reachable if the fast validator were stricter than the canonicaliser: trust the latter.
  return utf8ByteLength(text) > maxPayloadBytes ? sizeMessage(maxPayloadBytes) : undefined;
}
