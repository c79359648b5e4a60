import type { CheckpointIntegrityError } from '../errors.js';
import type { Checkpoint, CheckpointRow } from '../types.js';
import { RowFieldChecks } from './row-field-checks.js';
import { integrityError, rowFailure, toCheckpoint } from './verify-row.js';

/**
 * A row read for display: its verified record, or the raw row and why it failed. `sealed`: the
 * row was a sealed envelope, opened and verified (only `CheckpointStore.checkRows` of a store
 * opened with keys sets it).
 */
export type CheckedRow = { ok: true; row: Checkpoint; sealed?: boolean } | { ok: false; raw: CheckpointRow; error: CheckpointIntegrityError };

/** Reads are never refused for size or depth (as the store reads). */
const READ_LIMITS = { maxPayloadBytes: Number.MAX_SAFE_INTEGER, maxDepth: Number.MAX_SAFE_INTEGER };

/**
 * Verifies each row on its own, for readers that show every row with its status (the inspector's
 * timeline) instead of failing a whole page on one bad row as the store's reads do. A failed row
 * is never handed out as a record: only its raw columns, to name it.
 *
 * @example
 * ```ts
 * const checked = checkRows(await store.adapter.listBySourceRefPrefix!(query));
 * ```
 */
export function checkRows(rows: readonly CheckpointRow[]): CheckedRow[] {
  const fields = new RowFieldChecks();
  return rows.map((raw) => {
    const reason = rowFailure(raw, READ_LIMITS, fields);
    if (reason === undefined) return { ok: true, row: toCheckpoint(raw) };
    return { ok: false, raw, error: integrityError([{ id: typeof raw.id === 'number' ? raw.id : Number(raw.id), reason }]) };
  });
}
