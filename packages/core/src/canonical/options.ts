/**
 * Option resolution shared by the canonicaliser entry points: defaults come from
 * {@link DEFAULT_LIMITS} and bad values are a validation error rather than silent misbehaviour.
 */
import { DEFAULT_LIMITS } from '../limits.js';
import { positiveInteger } from '../validation/integers.js';

/** Options of {@link canonicalize} and {@link canonicalizeJson}. */
export interface CanonicalizeOptions {
  /** Max nesting of arrays and objects. Default is 1000; the top-level container counts as depth 1. */
  maxDepth?: number;
}

/** Caps of the payload helpers; each defaults to the value in {@link DEFAULT_LIMITS}. */
export interface PayloadLimits {
  /** Max UTF-8 bytes of the canonical text. Default is `1048576`. */
  maxPayloadBytes?: number;
  /** Max nesting of arrays and objects, the top-level object counting as 1. Default is `1000`. */
  maxDepth?: number;
}

function positiveOr(name: string, value: number | undefined, fallback: number): number {
  return value === undefined ? fallback : positiveInteger(value, name);
}

/**
 * The effective depth cap: `maxDepth`, or 1000 when undefined.
 *
 * @throws CheckpointValidationError when `maxDepth` is not a positive integer.
 * @example
 * ```ts
 * resolveMaxDepth(undefined); // 1000
 * ```
 */
export function resolveMaxDepth(maxDepth: number | undefined): number {
  return positiveOr('maxDepth', maxDepth, DEFAULT_LIMITS.maxDepth);
}

/**
 * The effective payload size cap: `maxPayloadBytes`, or 1048576 when undefined.
 *
 * @throws CheckpointValidationError when not a positive integer.
 * @example
 * ```ts
 * resolveMaxPayloadBytes(4096); // 4096
 * ```
 */
export function resolveMaxPayloadBytes(maxPayloadBytes: number | undefined): number {
  return positiveOr('maxPayloadBytes', maxPayloadBytes, DEFAULT_LIMITS.maxPayloadBytes);
}
