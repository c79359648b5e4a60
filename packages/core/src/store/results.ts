import type { IntegrityFailure } from '../errors.js';
import type { SealReport } from '../seal/store-seal.js';
import type { Checkpoint } from '../types.js';

/** Result of {@link CheckpointStore.delete}. */
export interface DeleteResult {
  /** `true` unless `apply: true` was given. */
  dryRun: boolean;
  /** The verified pre-image, or `null` when `force` let a row that fails verification through. */
  checkpoint: Checkpoint | null;
  /** `[id]` when the row went, `[]` in a dry run. */
  deleted: number[];
  /** Why the row failed verification, when `force` was needed. */
  integrityFailure?: string;
}

/** One session of a namespace, from {@link CheckpointStore.sessions}. */
export interface SessionSummary {
  sessionId: string;
  /** Checkpoints in the session. */
  count: number;
  /** Id and created_at of its newest checkpoint. */
  latestId: number;
  latestCreatedAt: string;
}

/** Result of {@link CheckpointStore.prune}. */
export interface PruneResult {
  dryRun: boolean;
  /** Ids the criteria select, ascending. */
  selected: number[];
  /** Ids actually deleted (`[]` in a dry run), ascending. */
  deleted: number[];
}

/** Result of {@link CheckpointStore.verify}. */
export interface VerifyReport {
  /** Namespace scanned, or `null` for the whole store. */
  namespace: string | null;
  /** Rows read. */
  checked: number;
  /** Rows that passed. */
  ok: number;
  /** Every row that failed, by id ascending, with the reason. */
  failures: IntegrityFailure[];
  /**
   * A store opened with keys: sealed and plaintext row counts, every chain, order and head problem
   * (a session restored from an older copy, rows deleted or moved outside the store), and the
   * store head's anchor digest. Absent for a plain store. The store holds when `failures` and
   * `seal.problems` are both empty.
   */
  seal?: SealReport;
}
