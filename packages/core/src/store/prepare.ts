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
 * Where {@link prepareCheckpoint} keeps the text it canonicalised and the SHA-256 it computed of
 * it, under a symbol no other module holds (non-enumerable: spread, `Object.keys`, JSON and test
 * matchers do not see it, and a copy made by spreading carries none). A pair found here passed
 * this module's canonicaliser and hash, so a store may take it as verified (see
 * {@link writtenPair}); the fields `payloadJson` and `payloadSha256` are the caller's to change,
 * and are never trusted on their own.
 */
const CANONICAL = Symbol('canonicalPayload');

/**
 * The (text, SHA-256) pair this module computed for `prepared`, when `prepared` came from
 * {@link prepareCheckpoint} and still holds exactly that pair; else `undefined`. Such a pair
 * passes a stored row's payload check by construction (canonical text, its own hash), which is
 * what lets the store's verified-text memo keep it at the write (docs/decisions/0040).
 */
export function writtenPair(prepared: PreparedCheckpoint): { json: string; sha256: string } | undefined {
  const pair = (prepared as unknown as Record<symbol, { json: string; sha256: string } | undefined>)[CANONICAL];
  return pair !== undefined && pair.json === prepared.payloadJson && pair.sha256 === prepared.payloadSha256 ? pair : undefined;
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
  const prepared: PreparedCheckpoint = {
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
  // Frozen: code holding the symbol's value (reachable by getOwnPropertySymbols) cannot change the
  // pair the store will take as canonicalised and hashed by itself.
  Object.defineProperty(prepared, CANONICAL, { value: Object.freeze({ json: payload.json, sha256: payload.sha256 }) });
  return prepared;
}

function notText(): never {
  throw new CheckpointValidationError('payloadJson must be a string');
}
