import { checkStoredPayload } from '../canonical/payload.js';
import { CheckpointIntegrityError, type IntegrityFailure } from '../errors.js';
import type { CheckpointLimits } from '../limits.js';
import type { Checkpoint, CheckpointRow } from '../types.js';
import { toCheckpoint } from './lazy-checkpoint.js';
import { isPositiveInteger } from '../validation/integers.js';
import { MAX_CHECKPOINT_ID } from '../port/id-limit.js';
import { RowFieldChecks } from './row-field-checks.js';
import type { VerifiedPayloads } from './verified-payloads.js';

/*
 * The one place where stored rows are trusted or refused. Adapters hand rows over untouched; a
 * tampered store can hold anything in any column, so every field is checked by type and rule here.
 * A row that fails is never returned (fail closed).
 */

type Limits = Pick<CheckpointLimits, 'maxPayloadBytes' | 'maxDepth'>;

/**
 * Why a stored id fails: ids run from 1 to MAX_CHECKPOINT_ID (2^53 - 1). The stored value is
 * named as the driver gave it (PostgreSQL's text for a `bigint` beyond 2^53, exactly).
 */
function idProblem(id: unknown): string {
  const shown = typeof id === 'number' || typeof id === 'bigint' || (typeof id === 'string' && /^-?\d{1,20}$/u.test(id)) ? String(id) : undefined;
  return shown === undefined ? 'id is not a positive integer' : `id ${shown} is outside 1 to ${MAX_CHECKPOINT_ID} (ids are positive integers up to 2^53 - 1)`;
}

/**
 * Checks one stored row. Returns the reason it fails, or `undefined` when every field holds.
 * Never throws. `fields` may carry what earlier rows of the same batch proved (see {@link RowFieldChecks});
 * `memo`, the payloads this store already checked with these `limits` (see {@link VerifiedPayloads}).
 */
export function rowFailure(row: CheckpointRow, limits: Limits, fields = new RowFieldChecks(), memo?: VerifiedPayloads): string | undefined {
  const r = row as unknown as Record<string, unknown>;
  if (!isPositiveInteger(r.id)) return idProblem(r.id);
  const text = r.payloadJson;
  const sha = r.payloadSha256;
  if (typeof text !== 'string') return 'payload is not text';
  if (typeof sha !== 'string') return 'payload hash is not text';
  if (memo === undefined || !memo.knows(sha, text)) {
    const payloadProblem = checkStoredPayload(text, sha, limits);
    if (payloadProblem !== undefined) return payloadProblem;
    memo?.remember(sha, text);
  }
  return fields.failure(r);
}

export { toCheckpoint } from './lazy-checkpoint.js';

/** Displayable id of a row whose id column may itself be damaged. */
function failureId(row: CheckpointRow): number {
  return typeof row.id === 'number' ? row.id : Number(row.id);
}

/** The integrity error for a set of bad rows, with the reference's message for a single payload failure. */
export function integrityError(failures: readonly IntegrityFailure[]): CheckpointIntegrityError {
  const [first] = failures;
  if (failures.length === 1 && first) {
    const message =
      first.reason === 'invalid JSON'
        ? `Checkpoint ${first.id} contains invalid JSON`
        : first.reason.startsWith('payload')
          ? `Checkpoint ${first.id} failed payload integrity verification`
          : `Checkpoint ${first.id} failed integrity verification: ${first.reason}`;
    return new CheckpointIntegrityError(message, { failures });
  }
  const detail = failures.map((f) => `${f.id}: ${f.reason}`).join('; ');
  return new CheckpointIntegrityError(
    `Checkpoints ${failures.map((f) => f.id).join(', ')} failed integrity verification (${detail})`,
    { failures },
  );
}

/**
 * Verifies every row and returns their records, or throws one {@link CheckpointIntegrityError}
 * naming every bad row (not just the first). `memo`: see {@link rowFailure}.
 */
export function verifyRows(rows: readonly CheckpointRow[], limits: Limits, memo?: VerifiedPayloads): Checkpoint[] {
  const out: Checkpoint[] = [];
  let failures: IntegrityFailure[] | undefined;
  const fields = new RowFieldChecks();
  for (const row of rows) {
    const reason = rowFailure(row, limits, fields, memo);
    if (reason === undefined) out.push(toCheckpoint(row));
    else (failures ??= []).push({ id: failureId(row), reason });
  }
  if (failures) throw integrityError(failures);
  return out;
}

/** Verifies one row; see {@link verifyRows}. */
export function verifyRow(row: CheckpointRow, limits: Limits, memo?: VerifiedPayloads): Checkpoint {
  const reason = rowFailure(row, limits, undefined, memo);
  if (reason !== undefined) throw integrityError([{ id: failureId(row), reason }]);
  return toCheckpoint(row);
}
