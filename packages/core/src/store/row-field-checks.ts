import { isToken, MAX_NAME_LENGTH, MAX_SESSION_ID_LENGTH, validateText } from '../validation/fields.js';
import { isNormalizedTimestamp } from '../validation/timestamp.js';

/*
 * The rows of one read mostly share their namespace, kind, session and often their second of
 * creation, and each check is a pure function of the string: a value equal to one this instance
 * already accepted is accepted without running the rule again (a string compare instead of a
 * regular expression or a code point scan). Rejections are never remembered, so every bad value
 * is still refused, with the same reason, in the same order of fields.
 */

function textOk(value: unknown, max: number): boolean {
  try {
    validateText(value, 'field', max);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks of a stored row's text fields, remembering the last value each field accepted. Use one
 * instance per batch of rows (see `verifyRows`); a fresh instance checks everything.
 *
 * @example
 * ```ts
 * const checks = new RowFieldChecks();
 * rows.map((row) => checks.failure(row)); // undefined for each good row
 * ```
 */
export class RowFieldChecks {
  #namespace: string | undefined;
  #kind: string | undefined;
  #sessionId: string | undefined;
  #name: string | undefined;
  #createdAt: string | undefined;

  /** The reason the first bad text field of `r` fails, or `undefined` when they all hold. */
  failure(r: Record<string, unknown>): string | undefined {
    const { namespace, kind, sessionId, name, sourceRef, createdAt } = r;
    if (namespace !== this.#namespace) {
      if (!isToken(namespace)) return 'namespace is invalid';
      this.#namespace = namespace;
    }
    if (kind !== this.#kind) {
      if (!isToken(kind)) return 'kind is invalid';
      this.#kind = kind;
    }
    if (sessionId !== this.#sessionId) {
      if (!textOk(sessionId, MAX_SESSION_ID_LENGTH)) return 'session_id is invalid';
      this.#sessionId = sessionId as string;
    }
    if (name !== this.#name) {
      if (!textOk(name, MAX_NAME_LENGTH)) return 'name is invalid';
      this.#name = name as string;
    }
    // Source refs are unique per namespace: nothing to remember.
    if (sourceRef !== null && !textOk(sourceRef, MAX_NAME_LENGTH)) return 'source_ref is invalid';
    if (createdAt !== this.#createdAt) {
      if (!isNormalizedTimestamp(createdAt)) return 'created_at is not a normalised UTC timestamp';
      this.#createdAt = createdAt;
    }
    return undefined;
  }
}
