import { CheckpointValidationError } from '../errors.js';

/*
 * The integer rules of every option, limit and id, written once so that each says the same thing:
 * a safe integer (numbers travel through JavaScript), CheckpointValidationError, `<name> must be a
 * positive integer` (or `non-negative`), as the Python reference words it.
 */

/** True for a positive safe integer. */
export function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/**
 * Returns `value` when it is a positive safe integer.
 *
 * @throws CheckpointValidationError `<name> must be a positive integer` otherwise.
 * @example
 * ```ts
 * positiveInteger(50, 'maxHistory'); // 50
 * positiveInteger(0, 'maxHistory');  // throws "maxHistory must be a positive integer"
 * ```
 */
export function positiveInteger(value: unknown, name: string): number {
  if (!isPositiveInteger(value)) throw new CheckpointValidationError(`${name} must be a positive integer`);
  return value;
}

/**
 * Returns `value` when it is a safe integer of 0 or more (offsets, counts to keep, timeouts).
 *
 * @throws CheckpointValidationError `<name> must be a non-negative integer` otherwise.
 * @example
 * ```ts
 * nonNegativeInteger(0, 'offset');  // 0
 * nonNegativeInteger(-1, 'offset'); // throws "offset must be a non-negative integer"
 * ```
 */
export function nonNegativeInteger(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new CheckpointValidationError(`${name} must be a non-negative integer`);
  }
  return value;
}
