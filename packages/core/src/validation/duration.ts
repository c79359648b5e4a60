import { CheckpointValidationError } from '../errors.js';

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * A duration in milliseconds: a positive whole number of milliseconds, or text made of one or more
 * `<whole number><unit>` groups with the units `w`, `d`, `h`, `m`, `s` (`30d`, `12h`, `1d12h`).
 * Months and years are refused: their length varies.
 *
 * @throws CheckpointValidationError naming `field` for anything else, or a duration of zero.
 * @example
 * ```ts
 * parseDuration('1d12h'); // 129600000
 * ```
 */
export function parseDuration(value: unknown, field = 'duration'): number {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value > 0) return value;
    throw new CheckpointValidationError(`${field} must be a positive whole number of milliseconds`);
  }
  if (typeof value !== 'string' || !/^(?:\d{1,9}[wdhms])+$/.test(value)) {
    throw new CheckpointValidationError(`${field} must be a duration such as 30d, 12h or 1d12h (units w, d, h, m, s)`);
  }
  let ms = 0;
  for (const [, count, unit] of value.matchAll(/(\d+)([wdhms])/g)) ms += Number(count) * (UNIT_MS[unit as string] as number);
  if (ms <= 0 || !Number.isSafeInteger(ms)) throw new CheckpointValidationError(`${field} must be longer than zero`);
  return ms;
}
