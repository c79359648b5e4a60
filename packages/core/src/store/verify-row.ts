import { checkStoredPayload } from '../canonical/payload.js';
import { CheckpointIntegrityError, type IntegrityFailure } from '../errors.js';
import type { CheckpointLimits } from '../limits.js';
import type { Checkpoint, CheckpointRow } from '../types.js';
import { toCheckpoint } from './checkpoint-record.js';
import { isToken, MAX_NAME_LENGTH, MAX_SESSION_ID_LENGTH, validateText } from '../validation/fields.js';
import { isPositiveInteger } from '../validation/integers.js';
import { isNormalizedTimestamp } from '../validation/timestamp.js';

/*
 * The one place where stored rows are trusted or refused. Adapters hand rows over untouched; a
 * tampered store can hold anything in any column, so every field is checked by type and rule here.
 * A row that fails is never returned (fail closed).
 */

type Limits = Pick<CheckpointLimits, 'maxPayloadBytes' | 'maxDepth'>;

function textOk(value: unknown, max: number): boolean {
  try {
    validateText(value, 'field', max);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks one stored row. Returns the reason it fails, or `undefined` when every field holds.
 * Never throws.
 */
export function rowFailure(row: CheckpointRow, limits: Limits): string | undefined {
  const r = row as unknown as Record<string, unknown>;
  if (!isPositiveInteger(r.id)) return 'id is not a positive integer';
  if (typeof r.payloadJson !== 'string') return 'payload is not text';
  if (typeof r.payloadSha256 !== 'string') return 'payload hash is not text';
  const payloadProblem = checkStoredPayload(r.payloadJson, r.payloadSha256, limits);
  if (payloadProblem !== undefined) return payloadProblem;
  if (!isToken(r.namespace)) return 'namespace is invalid';
  if (!isToken(r.kind)) return 'kind is invalid';
  if (!textOk(r.sessionId, MAX_SESSION_ID_LENGTH)) return 'session_id is invalid';
  if (!textOk(r.name, MAX_NAME_LENGTH)) return 'name is invalid';
  if (r.sourceRef !== null && !textOk(r.sourceRef, MAX_NAME_LENGTH)) return 'source_ref is invalid';
  if (!isNormalizedTimestamp(r.createdAt)) return 'created_at is not a normalised UTC timestamp';
  return undefined;
}

export { toCheckpoint } from './checkpoint-record.js';

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
 * naming every bad row (not just the first).
 */
export function verifyRows(rows: readonly CheckpointRow[], limits: Limits): Checkpoint[] {
  const out: Checkpoint[] = [];
  let failures: IntegrityFailure[] | undefined;
  for (const row of rows) {
    const reason = rowFailure(row, limits);
    if (reason === undefined) out.push(toCheckpoint(row));
    else (failures ??= []).push({ id: failureId(row), reason });
  }
  if (failures) throw integrityError(failures);
  return out;
}

/** Verifies one row; see {@link verifyRows}. */
export function verifyRow(row: CheckpointRow, limits: Limits): Checkpoint {
  const reason = rowFailure(row, limits);
  if (reason !== undefined) throw integrityError([{ id: failureId(row), reason }]);
  return toCheckpoint(row);
}
