import { describe, expect, it } from 'vitest';
import { isCheckpointValidationError } from '../errors.js';
import { isNormalizedTimestamp, normalizeTimestamp, nowTimestamp } from './timestamp.js';

function failure(value: unknown): string {
  try {
    normalizeTimestamp(value);
  } catch (error) {
    expect(isCheckpointValidationError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`accepted ${String(value)}`);
}

describe('normalizeTimestamp', () => {
  it.each([
    ['2026-08-08T07:00:00Z', '2026-08-08T07:00:00Z'],
    ['2026-08-08T09:30:00+02:00', '2026-08-08T07:30:00Z'],
    ['2026-08-08T12:00:00.999Z', '2026-08-08T12:00:00Z'],
    ['2026-08-08T00:30:00.5-01:30', '2026-08-08T02:00:00Z'],
    ['2026-08-08T00:00:00-00:00', '2026-08-08T00:00:00Z'],
    ['2024-02-29T23:59:59+00:00', '2024-02-29T23:59:59Z'],
    ['0999-01-01T00:00:00Z', '0999-01-01T00:00:00Z'],
    ['0001-01-01T00:30:00+00:30', '0001-01-01T00:00:00Z'],
    ['9999-12-31T23:59:59Z', '9999-12-31T23:59:59Z'],
    ['2026-01-01T00:59:00+01:00', '2025-12-31T23:59:00Z'],
  ])('normalises %s to %s', (input, expected) => {
    expect(normalizeTimestamp(input)).toBe(expected);
  });

  it('truncates fractions instead of rounding (as the reference does)', () => {
    expect(normalizeTimestamp('2026-08-08T07:00:59.9999999Z')).toBe('2026-08-08T07:00:59Z');
  });

  it('uses the clock for missing values, truncated to seconds', () => {
    const now = () => new Date(Date.UTC(2026, 10, 29, 8, 30, 15, 987));
    expect(normalizeTimestamp(undefined, 'created_at', now)).toBe('2026-11-29T08:30:15Z');
    expect(normalizeTimestamp(null, 'created_at', now)).toBe('2026-11-29T08:30:15Z');
    expect(nowTimestamp(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toBe('2026-01-02T03:04:05Z');
  });

  it.each([
    ['2026-08-08T07:00:00', 'created_at must include a timezone'],
    ['2026-08-08', 'created_at must include a timezone'],
    ['yesterday', 'created_at must be a valid ISO-8601 timestamp'],
    ['2026-02-30T00:00:00Z', 'created_at must be a valid ISO-8601 timestamp'],
    ['2025-02-29T00:00:00Z', 'created_at must be a valid ISO-8601 timestamp'],
    ['2026-08-08T24:00:00Z', 'created_at must be a valid ISO-8601 timestamp'],
    ['2026-08-08T07:00:60Z', 'created_at must be a valid ISO-8601 timestamp'],
    ['2026-08-08T07:00:00z', 'created_at must be a valid ISO-8601 timestamp'],
    ['2026-08-08T07:00:00+24:00', 'created_at must be a valid ISO-8601 timestamp'],
    ['20260808T090000+0200', 'created_at must be a valid ISO-8601 timestamp'],
    ['2026-08-08T07:00:00Z[UTC]', 'created_at must be a valid ISO-8601 timestamp'],
    ['２０２６-08-08T07:00:00Z', 'created_at must be a valid ISO-8601 timestamp'],
    ['0001-01-01T00:00:00+01:00', 'created_at is out of range (years 0001 to 9999 in UTC)'],
    ['9999-12-31T23:59:59-00:01', 'created_at is out of range (years 0001 to 9999 in UTC)'],
    ['0000-01-01T00:00:00Z', 'created_at must be a valid ISO-8601 timestamp'],
  ])('rejects %s', (input, message) => {
    expect(failure(input)).toBe(message);
  });

  it('rejects non-strings with the reference message', () => {
    expect(failure(1234)).toBe('created_at must be an ISO-8601 string');
  });

  it('recognises normalised stored values only', () => {
    expect(isNormalizedTimestamp('2026-08-08T07:00:00Z')).toBe(true);
    expect(isNormalizedTimestamp('2026-08-08T09:00:00+02:00')).toBe(false);
    expect(isNormalizedTimestamp('2026-08-08T07:00:00.5Z')).toBe(false);
    expect(isNormalizedTimestamp(20260808)).toBe(false);
  });
});
