import { CheckpointValidationError } from '../errors.js';

/*
 * Python's reference normalises created_at with `datetime.fromisoformat`, whose grammar changes
 * between Python versions. We accept an explicit RFC 3339 grammar instead (DESIGN.md 3, "Python
 * quirks"): `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`. The fraction is truncated, never rounded,
 * as Python does, and the result is `YYYY-MM-DDTHH:MM:SSZ` in UTC.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const SECONDS_PER_DAY = 86_400;
/** Bounds of years 1..9999, as Python's datetime allows, in seconds since 1970. */
const MIN_EPOCH = daysFromCivil(1, 1, 1) * SECONDS_PER_DAY;
const MAX_EPOCH = daysFromCivil(9999, 12, 31) * SECONDS_PER_DAY + SECONDS_PER_DAY - 1;

/**
 * Days since 1970-01-01 of a proleptic Gregorian date. Hand-rolled because `Date.UTC` maps years
 * 0..99 to 1900..1999, and we must handle year 1 exactly. (Howard Hinnant's days_from_civil.)
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Formats seconds since 1970 as `YYYY-MM-DDTHH:MM:SSZ` (4-digit zero-padded year). */
export function formatUtcSeconds(epochSeconds: number): string {
  const days = Math.floor(epochSeconds / SECONDS_PER_DAY);
  const rest = epochSeconds - days * SECONDS_PER_DAY;
  const [y, m, d] = civilFromDays(days);
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}T${pad(Math.floor(rest / 3600), 2)}:${pad(Math.floor((rest % 3600) / 60), 2)}:${pad(rest % 60, 2)}Z`;
}

/**
 * The current time as a normalised created_at (UTC, whole seconds, fraction truncated).
 *
 * @example
 * ```ts
 * nowTimestamp(); // '2026-11-29T08:30:00Z'
 * ```
 */
export function nowTimestamp(now: Date = new Date()): string {
  const seconds = Math.floor(now.getTime() / 1000);
  // Agent loops write many checkpoints per second: format each second once.
  if (seconds !== lastNow.seconds) lastNow = { seconds, text: formatUtcSeconds(seconds) };
  return lastNow.text;
}
let lastNow = { seconds: Number.NaN, text: '' };

/**
 * Results of recent string normalisations. Parsing is pure, and the same values come back again
 * and again (a loop's fixed timestamp, every stored value re-checked on read), so a small cache
 * saves the regex and calendar arithmetic on the hot paths. Cleared when full; errors are not cached.
 */
const recent = new Map<string, string>();
const RECENT_MAX = 1024;

/**
 * Normalises a created_at value to `YYYY-MM-DDTHH:MM:SSZ` in UTC.
 *
 * `undefined`/`null` give the current time. Strings must be RFC 3339 with an offset (`Z` or
 * `±HH:MM`); fractions are truncated. Years outside 1..9999 after conversion to UTC are rejected.
 *
 * @throws CheckpointValidationError with the reference's messages (`created_at must be an ISO-8601
 *   string`, `... include a timezone`, `... a valid ISO-8601 timestamp`).
 * @example
 * ```ts
 * normalizeTimestamp('2026-08-08T09:30:00.999+02:00'); // '2026-08-08T07:30:00Z'
 * ```
 */
export function normalizeTimestamp(value: unknown, field = 'created_at', now?: () => Date): string {
  if (value === undefined || value === null) return nowTimestamp(now?.());
  if (typeof value !== 'string') throw new CheckpointValidationError(`${field} must be an ISO-8601 string`);
  const cached = recent.get(value);
  if (cached !== undefined) return cached;
  const normalized = parseTimestamp(value, field);
  if (recent.size >= RECENT_MAX) recent.clear();
  recent.set(value, normalized);
  return normalized;
}

function parseTimestamp(value: string, field: string): string {
  const match = RFC3339.exec(value);
  if (!match) {
    if (DATE_ONLY.test(value)) throw new CheckpointValidationError(`${field} must include a timezone`);
    throw new CheckpointValidationError(`${field} must be a valid ISO-8601 timestamp`);
  }
  const [, ys, mos, ds, hs, mis, ss, , offset] = match as unknown as string[];
  const year = Number(ys), month = Number(mos), day = Number(ds);
  const hour = Number(hs), minute = Number(mis), second = Number(ss);
  if (
    year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) ||
    hour > 23 || minute > 59 || second > 59
  ) {
    throw new CheckpointValidationError(`${field} must be a valid ISO-8601 timestamp`);
  }
  if (offset === undefined) throw new CheckpointValidationError(`${field} must include a timezone`);
  let offsetSeconds = 0;
  if (offset !== 'Z') {
    const oh = Number(offset.slice(1, 3)), om = Number(offset.slice(4, 6));
    if (oh > 23 || om > 59) throw new CheckpointValidationError(`${field} must be a valid ISO-8601 timestamp`);
    offsetSeconds = (oh * 3600 + om * 60) * (offset[0] === '-' ? -1 : 1);
  }
  const epoch = daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second - offsetSeconds;
  if (epoch < MIN_EPOCH || epoch > MAX_EPOCH) {
    throw new CheckpointValidationError(`${field} is out of range (years 0001 to 9999 in UTC)`);
  }
  return formatUtcSeconds(epoch);
}

/** True when `value` is already in the normalised form this module produces. Cheap; used on reads. */
export function isNormalizedTimestamp(value: unknown): value is string {
  if (typeof value !== 'string' || value.length !== 20 || value[19] !== 'Z') return false;
  try {
    return normalizeTimestamp(value) === value;
  } catch {
    return false;
  }
}
