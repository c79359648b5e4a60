/**
 * @session-checkpoint/mastra: Mastra's `memory` and `workflows` storage domains over a
 * session-checkpoint store (SQLite, PostgreSQL, memory or any adapter), verified on every read,
 * with every change of a thread's memory and every workflow snapshot kept as a version.
 *
 * @example
 * ```ts
 * import { createMastraStorage } from '@session-checkpoint/mastra';
 * const mastra = new Mastra({ storage: createMastraStorage(await openSqliteStore('./mastra.sqlite')) });
 * ```
 *
 * @packageDocumentation
 */
export { CheckpointMemoryStorage, type CheckpointMemoryStorageOptions } from './memory-storage.js';
export { CheckpointWorkflowsStorage, type CheckpointWorkflowsStorageOptions } from './workflows-storage.js';
export { createMastraStorage, type MastraStorageOptions } from './composite.js';
export { KINDS, MASTRA_NAMESPACE } from './rows/namespace.js';
export { migrateMastra, type MastraDomains, type MastraMigrationDifference, type MastraMigrationOptions, type MastraMigrationReport } from './migrate.js';
export { openMastraStore, MissingPackageError, type OpenedMastraStore } from './open-mastra-store.js';
