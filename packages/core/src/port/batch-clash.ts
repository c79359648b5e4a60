import { CheckpointConflictError } from '../errors.js';
import type { NewCheckpointRow } from '../types.js';

/**
 * The index of the first row of an `insertMany` batch whose `(namespace, sourceRef)` an earlier
 * row of the same batch holds, or `-1`. Shared by the adapters, so that all of them refuse such a
 * batch alike (with {@link batchClashError}).
 *
 * @example
 * ```ts
 * const clash = firstBatchClash(rows); // rows before it may go in; it may not
 * ```
 */
export function firstBatchClash(rows: readonly NewCheckpointRow[]): number {
  const seen = new Set<string>();
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as NewCheckpointRow;
    if (row.sourceRef === null) continue;
    const key = JSON.stringify([row.namespace, row.sourceRef]);
    if (seen.has(key)) return k;
    seen.add(key);
  }
  return -1;
}

/**
 * The refusal of a batch row that an earlier row of the batch clashes with. Its `ids` is empty:
 * the earlier row is never kept when the batch fails, so there is no stored row to name.
 */
export function batchClashError(row: NewCheckpointRow): CheckpointConflictError {
  return new CheckpointConflictError(`source_ref already exists in namespace '${row.namespace}'`, { ids: [] });
}
