import { CheckpointConflictError } from '../errors.js';

/**
 * The highest id a store hands out or accepts: 2^53 - 1 (`Number.MAX_SAFE_INTEGER`), the largest
 * integer a JavaScript number holds exactly. Ids travel as numbers, so past it two ids would read
 * back as one. Bundles with a higher id are refused on import, stored rows with one fail
 * verification, and a create that would be given one is refused ({@link idLimitError}).
 *
 * @example
 * ```ts
 * MAX_CHECKPOINT_ID; // 9007199254740991
 * ```
 */
export const MAX_CHECKPOINT_ID = Number.MAX_SAFE_INTEGER;

/** How {@link idLimitError}'s message starts (an adapter may carry another copy of core). */
const ID_LIMIT_MESSAGE = 'No checkpoint id left:';

/** True for the error of {@link idLimitError}, so the store passes it on instead of reporting a source_ref clash. */
export function isIdLimitError(error: CheckpointConflictError): boolean {
  return error.message.startsWith(ID_LIMIT_MESSAGE);
}

/**
 * The error of a create refused because the ids have reached {@link MAX_CHECKPOINT_ID}: the
 * next generated id would pass it. Adapters throw it before writing anything.
 *
 * @example
 * ```ts
 * if (sequence >= MAX_CHECKPOINT_ID) throw idLimitError();
 * ```
 */
export function idLimitError(): CheckpointConflictError {
  return new CheckpointConflictError(
    `${ID_LIMIT_MESSAGE} the ids of this store have reached ${MAX_CHECKPOINT_ID} (2^53 - 1), the highest id session-checkpoint hands out; nothing was written`,
  );
}
