/**
 * The error family of session-checkpoint.
 *
 * Every error thrown on purpose by any package is a {@link CheckpointError} with a stable
 * {@link CheckpointErrorCode}. Use the `isX()` guards rather than `instanceof`: they work when two
 * copies of `@session-checkpoint/core` are installed side by side (a plugin and its host, say),
 * because they look at a registry-wide symbol brand and the `code`, not at class identity.
 *
 * @example
 * ```ts
 * try {
 *   await store.get(42, { namespace: 'app' });
 * } catch (error) {
 *   if (isCheckpointNotFoundError(error)) console.log('no such checkpoint');
 *   else throw error;
 * }
 * ```
 */

/** Stable machine-readable codes, one per error class. They never change between releases. */
export type CheckpointErrorCode =
  | 'CHECKPOINT_ERROR'
  | 'VALIDATION'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'INTEGRITY'
  | 'STORE_SCHEMA'
  | 'STORE_SECURITY'
  | 'STORE_NOT_FOUND';

/** `Symbol.for` so that the brand is shared by every copy of this module in one process. */
const BRAND: unique symbol = Symbol.for('session-checkpoint.error') as never;

/** Options accepted by every error constructor. */
export interface CheckpointErrorOptions {
  /** The underlying error, kept for debugging; never shown to CLI users. */
  cause?: unknown;
}

/**
 * Base class of every session-checkpoint error. Catch this to handle all of them.
 *
 * @example
 * ```ts
 * if (isCheckpointError(err)) console.error(err.code, err.message);
 * ```
 */
export class CheckpointError extends Error {
  /** Stable code; see {@link CheckpointErrorCode}. */
  readonly code: CheckpointErrorCode = 'CHECKPOINT_ERROR';
  /** Brand read by the type guards. */
  readonly [BRAND] = true;

  constructor(message: string, options?: CheckpointErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    // Explicit names survive minification and are what the CLI prints as `type`.
    this.name = 'CheckpointError';
  }
}

/**
 * Bad input: a field that breaks a rule, a payload that is not a JSON object or is too large,
 * a malformed import bundle. Nothing was written.
 */
export class CheckpointValidationError extends CheckpointError {
  override readonly code = 'VALIDATION' as const;
  constructor(message: string, options?: CheckpointErrorOptions) {
    super(message, options);
    this.name = 'CheckpointValidationError';
  }
}

/** No checkpoint with that id in that namespace (an id of another namespace is "not found" too). */
export class CheckpointNotFoundError extends CheckpointError {
  override readonly code = 'NOT_FOUND' as const;
  constructor(message: string, options?: CheckpointErrorOptions) {
    super(message, options);
    this.name = 'CheckpointNotFoundError';
  }
}

/** A write would clash with existing state: a source_ref taken in the namespace, an import id that differs. */
export class CheckpointConflictError extends CheckpointError {
  override readonly code = 'CONFLICT' as const;
  /** Ids involved in the conflict, when known. Default is `[]`. */
  readonly ids: readonly number[];
  constructor(message: string, options?: CheckpointErrorOptions & { ids?: readonly number[] }) {
    super(message, options);
    this.name = 'CheckpointConflictError';
    this.ids = options?.ids ?? [];
  }
}

/** One row that failed verification, with the reason. */
export interface IntegrityFailure {
  /** The row id as stored (may be any value if the id column itself is damaged). */
  id: number;
  /** Human-readable reason, e.g. `payload hash mismatch`. */
  reason: string;
}

/**
 * A stored row failed verification on read (payload not canonical, hash mismatch, damaged field).
 * The row is never returned; `failures` names every bad row the operation met.
 */
export class CheckpointIntegrityError extends CheckpointError {
  override readonly code = 'INTEGRITY' as const;
  /** Every bad row met by the failed operation. */
  readonly failures: readonly IntegrityFailure[];
  constructor(message: string, options?: CheckpointErrorOptions & { failures?: readonly IntegrityFailure[] }) {
    super(message, options);
    this.name = 'CheckpointIntegrityError';
    this.failures = options?.failures ?? [];
  }
  /** Ids of the bad rows, in the order met. */
  get ids(): number[] {
    return this.failures.map((f) => f.id);
  }
}

/** The store file or database is not a compatible session-checkpoint store (foreign tables, wrong version, not SQLite). */
export class StoreSchemaError extends CheckpointError {
  override readonly code = 'STORE_SCHEMA' as const;
  constructor(message: string, options?: CheckpointErrorOptions) {
    super(message, options);
    this.name = 'StoreSchemaError';
  }
}

/** The store's files could not be made owner-only (0600), or are still group/world accessible. */
export class StoreSecurityError extends CheckpointError {
  override readonly code = 'STORE_SECURITY' as const;
  constructor(message: string, options?: CheckpointErrorOptions) {
    super(message, options);
    this.name = 'StoreSecurityError';
  }
}

/** A store that must already exist does not (read commands never create one). */
export class StoreNotFoundError extends CheckpointError {
  override readonly code = 'STORE_NOT_FOUND' as const;
  constructor(message: string, options?: CheckpointErrorOptions) {
    super(message, options);
    this.name = 'StoreNotFoundError';
  }
}

/** True for any session-checkpoint error, from any installed copy of core. */
export function isCheckpointError(value: unknown): value is CheckpointError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

function hasCode<T extends CheckpointError>(code: CheckpointErrorCode) {
  return (value: unknown): value is T => isCheckpointError(value) && value.code === code;
}

/** True for a {@link CheckpointValidationError} from any installed copy of core. */
export const isCheckpointValidationError = hasCode<CheckpointValidationError>('VALIDATION');
/** True for a {@link CheckpointNotFoundError} from any installed copy of core. */
export const isCheckpointNotFoundError = hasCode<CheckpointNotFoundError>('NOT_FOUND');
/** True for a {@link CheckpointConflictError} from any installed copy of core. */
export const isCheckpointConflictError = hasCode<CheckpointConflictError>('CONFLICT');
/** True for a {@link CheckpointIntegrityError} from any installed copy of core. */
export const isCheckpointIntegrityError = hasCode<CheckpointIntegrityError>('INTEGRITY');
/** True for a {@link StoreSchemaError} from any installed copy of core. */
export const isStoreSchemaError = hasCode<StoreSchemaError>('STORE_SCHEMA');
/** True for a {@link StoreSecurityError} from any installed copy of core. */
export const isStoreSecurityError = hasCode<StoreSecurityError>('STORE_SECURITY');
/** True for a {@link StoreNotFoundError} from any installed copy of core. */
export const isStoreNotFoundError = hasCode<StoreNotFoundError>('STORE_NOT_FOUND');
