import { canonicalPayloadFromJson, canonicalPayloadFromValue } from '../canonical/payload.js';
import { CheckpointValidationError } from '../errors.js';
import type { CheckpointLimits } from '../limits.js';
import type { CheckpointRow } from '../types.js';
import { defaultName, MAX_NAME_LENGTH, MAX_SESSION_ID_LENGTH, resolveNamespace, validateText, validateToken } from '../validation/fields.js';
import { normalizeTimestamp } from '../validation/timestamp.js';

/**
 * What a caller gives to create a checkpoint. Give exactly one of `payload` (a JavaScript object)
 * or `payloadJson` (JSON text; its number lexemes such as `1.0` or big integers are kept exactly).
 *
 * @example
 * ```ts
 * await store.create({ namespace: 'app', sessionId: 's-1', payload: { step: 3 } });
 * await store.create({ sessionId: 's-1', payloadJson: '{"total": 12345678901234567890}' });
 * ```
 */
export interface CreateCheckpointInput {
  /** Default is `"default"`. */
  namespace?: string;
  sessionId: string;
  /** The payload as a JavaScript object (plain objects, arrays, strings, finite numbers, bigint, booleans, null). */
  payload?: object;
  /** The payload as JSON text. */
  payloadJson?: string;
  /** Default is `"manual"`. */
  kind?: string;
  /** Default (also for `""` and `null`) is `checkpoint_<createdAt without - and :>`. */
  name?: string | null;
  /** RFC 3339 with offset, or a Date. Default is now (UTC, whole seconds). */
  createdAt?: string | Date | null;
  /** Unique within the namespace when given. Default is `null`. */
  sourceRef?: string | null;
}

/** A validated, canonicalised, hashed checkpoint, ready to insert: a row without its id, plus its size. */
export interface PreparedCheckpoint extends Omit<CheckpointRow, 'id'> {
  /** UTF-8 bytes of `payloadJson`. */
  payloadBytes: number;
}

/**
 * Validates and canonicalises an input without touching any store (the dry-run of `create`).
 * Checks run in the Python reference's order, so the first failure reported is the same:
 * created_at, payload, namespace, session_id, kind, name, source_ref.
 *
 * @throws CheckpointValidationError for the first rule broken.
 * @example
 * ```ts
 * const plan = prepareCheckpoint({ sessionId: 's', payload: { a: 1 } }, DEFAULT_LIMITS);
 * plan.payloadJson; // '{"a":1}'
 * ```
 */
export function prepareCheckpoint(
  input: CreateCheckpointInput,
  limits: Pick<CheckpointLimits, 'maxPayloadBytes' | 'maxDepth'>,
  now?: () => Date,
): PreparedCheckpoint {
  if (typeof input !== 'object' || input === null) {
    throw new CheckpointValidationError('checkpoint input must be an object');
  }
  const rawCreatedAt = input.createdAt instanceof Date ? input.createdAt.toISOString() : input.createdAt;
  const createdAt = normalizeTimestamp(rawCreatedAt, 'created_at', now);
  const name = input.name === undefined || input.name === null || input.name === '' ? defaultName(createdAt) : input.name;
  const hasValue = input.payload !== undefined;
  const hasText = input.payloadJson !== undefined;
  if (hasValue === hasText) {
    throw new CheckpointValidationError('give exactly one of payload or payloadJson');
  }
  const payload = hasText
    ? canonicalPayloadFromJson(typeof input.payloadJson === 'string' ? input.payloadJson : notText(), limits)
    : canonicalPayloadFromValue(input.payload, limits);
  return {
    namespace: resolveNamespace(input.namespace),
    sessionId: validateText(input.sessionId, 'session_id', MAX_SESSION_ID_LENGTH),
    kind: validateToken(input.kind ?? 'manual', 'kind'),
    name: validateText(name, 'name', MAX_NAME_LENGTH),
    payloadJson: payload.json,
    payloadSha256: payload.sha256,
    payloadBytes: payload.bytes,
    createdAt,
    sourceRef: input.sourceRef === undefined || input.sourceRef === null ? null : validateText(input.sourceRef, 'source_ref', MAX_NAME_LENGTH),
  };
}

function notText(): never {
  throw new CheckpointValidationError('payloadJson must be a string');
}
