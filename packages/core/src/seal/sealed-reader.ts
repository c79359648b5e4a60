/**
 * The read side of a sealed store, per row: what `verify-row.ts` is for plain rows. A row passes
 * when its id and text fields hold (the same rules as plain rows), its envelope is canonical and
 * hashes to its `payload_sha256`, its seal holds under the key it names and its ciphertext decrypts
 * under its own identity. GCM authenticates the plaintext, which was canonical when sealed, so it
 * is not scanned again. A plaintext row fails, unless the store was opened with `allowPlaintext`
 * (migration), when it is checked as any plain row.
 *
 * Opened rows are remembered (the same budget as the verified-text memo, docs/decisions/0012):
 * a row whose stored envelope text, hash and identity columns are all identical to one opened
 * before gets the same answer, since opening is a pure function of them and the keyring. A memo
 * hit compares the text in full and the id and identity columns; it skips HMAC, AES-GCM and
 * inflate. Rows this store seals are remembered as they are written ({@link rememberWritten}):
 * agent loops read back what they wrote, and a sealed miss costs about four plain ones.
 */
import type { IntegrityFailure } from '../errors.js';
import { TwoGenerationCache } from '../cache/two-generation-cache.js';
import type { Checkpoint, CheckpointRow } from '../types.js';
import { isPositiveInteger } from '../validation/integers.js';
import { RowFieldChecks } from '../store/row-field-checks.js';
import { failureId, idProblem, integrityError, rowFailure, toCheckpoint } from '../store/verify-row.js';
import type { VerifiedPayloads } from '../store/verified-payloads.js';
import type { Keyring } from './keyring.js';
import { openRow, parseEnvelope, type ChainPlace, type OpenedRow } from './row-envelope.js';

/** Reads are never refused for size or depth (as plain reads). */
const READ_LIMITS = { maxPayloadBytes: Number.MAX_SAFE_INTEGER, maxDepth: Number.MAX_SAFE_INTEGER };

/** A row that passed: its record, and its place in the chain (`undefined` for a plaintext row). */
export interface PassedRow {
  record: Checkpoint;
  opened: OpenedRow | undefined;
}

interface Remembered {
  text: string;
  identity: string;
  opened: OpenedRow;
}

/** The columns a memo hit must match besides the text: the id too (a seal covers it; two rows alike in every other column may trade envelopes). */
const identityOf = (row: CheckpointRow) => `${row.id}\u0000${row.namespace}\u0000${row.sessionId}\u0000${row.kind}\u0000${row.name}\u0000${row.createdAt}\u0000${row.sourceRef ?? '\u0001'}`;

/** Opens and checks stored rows of a sealed store; see the module comment. */
export class SealedReader {
  readonly #memo: TwoGenerationCache<string, Remembered> | undefined;

  /**
   * @param keys the keyring rows are opened with.
   * @param allowPlaintext accept plaintext rows (checked as plain rows).
   * @param budget UTF-16 code units of envelopes and plaintexts remembered; `0` keeps nothing.
   * @param plainMemo the store's memo for plaintext rows (migration).
   */
  constructor(
    readonly keys: Keyring,
    readonly allowPlaintext: boolean,
    budget: number,
    private readonly plainMemo?: VerifiedPayloads,
  ) {
    this.#memo = budget > 0 ? new TwoGenerationCache(budget, (r) => r.text.length + r.opened.payloadJson.length) : undefined;
  }

  /**
   * Checks one row: its record (and chain place) when it passes, or why it fails. Never throws.
   * `remember: false` checks from scratch and keeps nothing (verify and export always do).
   */
  check(row: CheckpointRow, fields = new RowFieldChecks(), remember = true): PassedRow | string {
    const r = row as unknown as Record<string, unknown>;
    if (!isPositiveInteger(r.id)) return idProblem(r.id);
    const text = r.payloadJson;
    if (typeof text !== 'string') return 'payload is not text';
    if (typeof r.payloadSha256 !== 'string') return 'payload hash is not text';
    const fieldProblem = fields.failure(r);
    if (fieldProblem !== undefined) return fieldProblem;
    const memo = remember ? this.#memo : undefined;
    const identity = memo === undefined ? '' : identityOf(row);
    const known = memo?.get(row.payloadSha256);
    if (known !== undefined && known.text === text && known.identity === identity) return this.#passed(row, known.opened);
    const envelope = parseEnvelope(text);
    if (envelope === undefined) {
      if (!this.allowPlaintext) return 'not sealed: a plaintext row in a store that requires encryption';
      const reason = rowFailure(row, READ_LIMITS, fields, remember ? this.plainMemo : undefined);
      return reason ?? { record: toCheckpoint(row), opened: undefined };
    }
    const opened = openRow(this.keys, row, envelope);
    if (typeof opened === 'string') return opened;
    memo?.set(row.payloadSha256, { text, identity, opened });
    return this.#passed(row, opened);
  }

  /**
   * Remembers a row this store sealed and is inserting (`row` as stored, `payloadJson` and
   * `payloadSha256` its plaintext's): reading it back is then a memo hit. Sound before the commit
   * too: the memo answers only for this exact text under this exact identity, which opens to
   * this plaintext whether or not the insert commits.
   */
  rememberWritten(row: CheckpointRow, place: ChainPlace, keyId: string, payloadJson: string, payloadSha256: string): void {
    this.#memo?.set(row.payloadSha256, { text: row.payloadJson, identity: identityOf(row), opened: { ...place, keyId, payloadJson, payloadSha256 } });
  }

  /** The record of a row that passed: its columns, with the plaintext and its hash. */
  #passed(row: CheckpointRow, opened: OpenedRow): PassedRow {
    const plain: CheckpointRow = {
      id: row.id,
      namespace: row.namespace,
      sessionId: row.sessionId,
      kind: row.kind,
      name: row.name,
      payloadJson: opened.payloadJson,
      payloadSha256: opened.payloadSha256,
      createdAt: row.createdAt,
      sourceRef: row.sourceRef,
    };
    return { record: toCheckpoint(plain), opened };
  }

  /** Every row checked; one `CheckpointIntegrityError` naming every bad row, or all passed. */
  passAll(rows: readonly CheckpointRow[]): PassedRow[] {
    const out: PassedRow[] = [];
    let failures: IntegrityFailure[] | undefined;
    const fields = new RowFieldChecks();
    for (const row of rows) {
      const result = this.check(row, fields);
      if (typeof result === 'string') (failures ??= []).push({ id: failureId(row), reason: result });
      else out.push(result);
    }
    if (failures) throw integrityError(failures);
    return out;
  }

  /** The records of rows that all pass; see {@link passAll}. */
  verifyRows(rows: readonly CheckpointRow[]): Checkpoint[] {
    return this.passAll(rows).map((p) => p.record);
  }

  /** One row's record; throws `CheckpointIntegrityError` when it fails. */
  verifyRow(row: CheckpointRow): Checkpoint {
    const result = this.check(row);
    if (typeof result === 'string') throw integrityError([{ id: failureId(row), reason: result }]);
    return result.record;
  }
}

