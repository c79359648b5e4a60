import { positiveInteger } from './validation/integers.js';

/**
 * Size and count caps. Every cap is overridable per store (`new CheckpointStore(adapter, { limits })`);
 * the defaults match the Python reference byte for byte, so a payload accepted here is accepted there.
 */
export interface CheckpointLimits {
  /** Max UTF-8 bytes of one canonical payload. Default is `1048576` (1 MiB). */
  maxPayloadBytes: number;
  /** Max bytes of a payload file read by the CLI, checked before parsing. Default is `8388608` (8 MiB). */
  maxPayloadFileBytes: number;
  /** Max checkpoints in one import bundle. Default is `1000`. */
  maxImportCheckpoints: number;
  /** Max sum of canonical payload bytes in one import bundle. Default is `16777216` (16 MiB). */
  maxImportPayloadBytes: number;
  /** Max bytes of an import file, checked before parsing. Default is `33554432` (32 MiB). */
  maxImportFileBytes: number;
  /** Max nesting of arrays and objects in a payload, the top-level object counting as 1. Default is `1000`. */
  maxDepth: number;
  /** Max `limit` of one list/history page. Default is `1000`. */
  maxListLimit: number;
}

/**
 * The default caps.
 *
 * @example
 * ```ts
 * const store = new CheckpointStore(adapter, { limits: { maxPayloadBytes: 4 * 1024 * 1024 } });
 * DEFAULT_LIMITS.maxPayloadBytes; // 1048576
 * ```
 */
export const DEFAULT_LIMITS: Readonly<CheckpointLimits> = Object.freeze({
  maxPayloadBytes: 1_048_576,
  maxPayloadFileBytes: 8_388_608,
  maxImportCheckpoints: 1000,
  maxImportPayloadBytes: 16_777_216,
  maxImportFileBytes: 33_554_432,
  maxDepth: 1000,
  maxListLimit: 1000,
});

/**
 * Merges caller overrides over {@link DEFAULT_LIMITS}; every value must be a positive safe integer.
 *
 * @throws CheckpointValidationError naming the first bad limit.
 * @example
 * ```ts
 * resolveLimits({ maxDepth: 64 }).maxDepth; // 64
 * ```
 */
export function resolveLimits(overrides: Partial<CheckpointLimits> = {}): Readonly<CheckpointLimits> {
  // Each key set once on a new object, never written over a copy of DEFAULT_LIMITS: a write over a
  // copy (same hidden class) makes V8 throw away optimised code that read DEFAULT_LIMITS's fields as
  // constants (canonicalize, at the first transaction of a store; docs/decisions/0054).
  const merged = {} as CheckpointLimits;
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof CheckpointLimits)[]) {
    const value = overrides[key];
    merged[key] = value === undefined ? DEFAULT_LIMITS[key] : positiveInteger(value, key);
  }
  return Object.freeze(merged);
}
