import { describe, expect, it } from 'vitest';
import { isCheckpointValidationError } from '../errors.js';
import { defaultName, validateId, validatePage, validateText, validateToken } from './fields.js';

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(isCheckpointValidationError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

const TOKEN_MESSAGE = 'namespace must match the token form: 1 to 128 ASCII characters, letters, digits and . _ : - only, starting with a letter or digit';

describe('validateToken', () => {
  it('accepts 1 to 128 ASCII characters starting alphanumeric', () => {
    expect(validateToken('a', 'namespace')).toBe('a');
    expect(validateToken('snapshot.v1:x_y-z', 'kind')).toBe('snapshot.v1:x_y-z');
    expect(validateToken('n'.repeat(128), 'namespace')).toHaveLength(128);
  });

  it.each(['', 'n'.repeat(129), 'bad ns', '-bad', '.x', 'a/b', 'é', 'a\n', 'a\u0000'])('rejects %j with the rule in words (no regular expression)', (value) => {
    expect(failure(() => validateToken(value, 'namespace'))).toBe(TOKEN_MESSAGE);
  });

  it('rejects non-strings', () => {
    expect(failure(() => validateToken(7, 'kind'))).toMatch(/^kind must match/);
  });
});

describe('validateText', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(validateText('😀'.repeat(256), 'name', 256)).toHaveLength(512);
    expect(failure(() => validateText('😀'.repeat(257), 'name', 256))).toBe('name must be a non-empty string of at most 256 characters');
  });

  it('accepts DEL, C1, line separators and whitespace-only text (as the reference)', () => {
    expect(validateText('a\u007fb \u2028 \u0085 ü', 'session_id', 512)).toBeTruthy();
    expect(validateText('   ', 'session_id', 512)).toBe('   ');
  });

  it('rejects C0 controls, empty strings and lone surrogates', () => {
    expect(failure(() => validateText('a\tb', 'session_id', 512))).toBe('session_id must not contain control characters');
    expect(failure(() => validateText('', 'session_id', 512))).toBe('session_id must be a non-empty string of at most 512 characters');
    expect(failure(() => validateText('a\ud800', 'name', 256))).toBe('name must not contain lone surrogates');
    expect(failure(() => validateText('\udc00a', 'name', 256))).toBe('name must not contain lone surrogates');
    expect(failure(() => validateText(null, 'source_ref', 256))).toBe('source_ref must be a non-empty string of at most 256 characters');
  });
});

describe('validateId and validatePage', () => {
  it('accepts positive safe integers only', () => {
    expect(validateId(1)).toBe(1);
    expect(failure(() => validateId(0))).toBe('checkpoint_id must be a positive integer');
    expect(failure(() => validateId(-3))).toBe('checkpoint_id must be a positive integer');
    expect(failure(() => validateId(1.5))).toBe('checkpoint_id must be a positive integer');
    expect(failure(() => validateId(true))).toBe('checkpoint_id must be a positive integer');
    expect(failure(() => validateId(2 ** 53))).toBe('checkpoint_id must not exceed 9007199254740991');
    expect(failure(() => validateId('1', 'id'))).toBe('id must be a positive integer');
  });

  it('checks limit, then offset, then the limit cap (the reference order)', () => {
    expect(validatePage(1000, 0, 1000)).toEqual({ limit: 1000, offset: 0 });
    expect(failure(() => validatePage(0, 0, 1000))).toBe('limit must be a positive integer');
    expect(failure(() => validatePage(1001, -1, 1000))).toBe('offset must be a non-negative integer');
    expect(failure(() => validatePage(1001, 0, 1000))).toBe('limit must not exceed 1000');
  });

  it('derives the default name from created_at', () => {
    expect(defaultName('2026-08-08T07:30:00Z')).toBe('checkpoint_20260808T073000Z');
  });
});
