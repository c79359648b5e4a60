/**
 * @session-checkpoint/langgraph: a LangGraph.js checkpointer over a session-checkpoint store.
 *
 * @packageDocumentation
 */
export { SessionCheckpointSaver, type SessionCheckpointSaverOptions } from './saver.js';
export { expireIdleThreads, pinThread, scheduleThreadExpiry, unpinThread, type ThreadExpiryOptions } from './idle-expiry.js';
export type { PruneReport, SaverPruneOptions } from './write/retention.js';
export {
  CHECKPOINT_KIND,
  PART_KIND,
  WRITE_KIND,
  type CheckpointPayload,
  type ListPiece,
  type PartPayload,
  type PartRef,
  type StoredWrite,
  type WritePayload,
} from './format/payloads.js';
export type { StoredValue } from './format/payloads.js';
export {
  migrateCheckpoints,
  verifyMigration,
  type MigrationDifference,
  type MigrationOptions,
  type MigrationProgress,
  type MigrationReport,
  type VerificationReport,
  type VerifyMigrationOptions,
} from './migrate/migrate.js';
export { MissingPackageError, openOfficialSaver, type OpenedSaver, type OpenOfficialSaverOptions } from './migrate/open.js';
