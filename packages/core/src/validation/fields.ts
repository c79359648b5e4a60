import { CheckpointValidationError } from '../errors.js';
import { nonNegativeInteger, positiveInteger } from './integers.js';

/*
 * Field rules of the Python reference (PYTHON_REFERENCE.md section 3), with its exact messages so
 * that the CLI prints what the reference prints. Lengths count code points, as Python's len() does.
 */

const TOKEN = /^[A-Za-z0-9](?:[A-Za-z0-9._:-]{0,127})?$/;
/**
 * The rule in words. The reference prints its regular expression (`must match
 * '[A-Za-z0-9](?:[A-Za-z0-9._:-]{0,127})?\\Z' ...`), which users cannot read; the CLI's parity
 * test lists this as a deliberate deviation. "must match" stays first, as in the reference.
 */
const TOKEN_MESSAGE = 'must match the token form: 1 to 128 ASCII characters, letters, digits and . _ : - only, starting with a letter or digit';

/** Max code points of a session id. */
export const MAX_SESSION_ID_LENGTH = 512;
/** Max code points of a name or a source_ref. */
export const MAX_NAME_LENGTH = 256;

/**
 * Validates a namespace or kind token: ASCII, 1 to 128 characters, first alphanumeric, the rest
 * alphanumeric or `. _ : -`.
 *
 * @example
 * ```ts
 * validateToken('app-a', 'namespace'); // 'app-a'
 * ```
 */
export function validateToken(value: unknown, field: 'namespace' | 'kind'): string {
  if (typeof value !== 'string' || !TOKEN.test(value)) {
    throw new CheckpointValidationError(`${field} ${TOKEN_MESSAGE}`);
  }
  return value;
}

/**
 * The namespace of a call: the given one, validated, or `'default'` when none is given
 * (`undefined` or `null`), as every reference command does.
 *
 * @example
 * ```ts
 * resolveNamespace(undefined); // 'default'
 * resolveNamespace('app-a');   // 'app-a'
 * ```
 */
export function resolveNamespace(namespace: unknown): string {
  return validateToken(namespace ?? 'default', 'namespace');
}

/** True for a well-formed namespace or kind token. */
export function isToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN.test(value);
}

/** Counts code points and finds C0 controls or lone surrogates in one pass. */
function scanText(value: string): { length: number; control: boolean; loneSurrogate: boolean } {
  let length = 0;
  let control = false;
  let loneSurrogate = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    length++;
    if (c < 0x20) control = true;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else loneSurrogate = true;
    } else if (c >= 0xdc00 && c <= 0xdfff) loneSurrogate = true;
  }
  return { length, control, loneSurrogate };
}

/**
 * Validates free text (session_id, name, source_ref): a non-empty string of at most `max` code
 * points, without C0 control characters. Lone surrogates are rejected too: they cannot be stored
 * as UTF-8 (Python crashes on them; we say so instead).
 *
 * @example
 * ```ts
 * validateText('sess-001', 'session_id', 512); // 'sess-001'
 * ```
 */
export function validateText(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new CheckpointValidationError(`${field} must be a non-empty string of at most ${max} characters`);
  }
  const scan = scanText(value);
  if (scan.length > max) {
    throw new CheckpointValidationError(`${field} must be a non-empty string of at most ${max} characters`);
  }
  if (scan.control) throw new CheckpointValidationError(`${field} must not contain control characters`);
  if (scan.loneSurrogate) throw new CheckpointValidationError(`${field} must not contain lone surrogates`);
  return value;
}

/**
 * Validates a positive integer id (a safe integer: ids travel through JavaScript numbers).
 *
 * @param field Name used in the message. Default is `checkpoint_id`, as the reference says for get/delete.
 * @example
 * ```ts
 * validateId(3); // 3
 * ```
 */
export function validateId(value: unknown, field = 'checkpoint_id'): number {
  // Integers past 2^53 get their own message (they would be rounded), before the general rule.
  if (typeof value === 'number' && Number.isInteger(value) && value > Number.MAX_SAFE_INTEGER) {
    throw new CheckpointValidationError(`${field} must not exceed ${Number.MAX_SAFE_INTEGER}`);
  }
  return positiveInteger(value, field);
}

/**
 * Validates a page: limit in 1..maxLimit, offset >= 0. Order of checks as in the reference.
 *
 * @example
 * ```ts
 * validatePage(20, 0, 1000); // ok
 * ```
 */
export function validatePage(limit: unknown, offset: unknown, maxLimit: number): { limit: number; offset: number } {
  const page = { limit: positiveInteger(limit, 'limit'), offset: nonNegativeInteger(offset, 'offset') };
  if (page.limit > maxLimit) throw new CheckpointValidationError(`limit must not exceed ${maxLimit}`);
  return page;
}

/** The name given when none (or `""`) is: `checkpoint_` plus created_at without `-` and `:`. */
export function defaultName(createdAt: string): string {
  // Normalised timestamps have a fixed layout, so slicing beats a regex on the create path.
  if (createdAt.length === 20) {
    return `checkpoint_${createdAt.slice(0, 4)}${createdAt.slice(5, 7)}${createdAt.slice(8, 13)}${createdAt.slice(14, 16)}${createdAt.slice(17)}`;
  }
  return `checkpoint_${createdAt.replace(/[-:]/g, '')}`;
}
