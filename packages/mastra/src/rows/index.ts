/**
 * `@session-checkpoint/mastra/rows`: reads the Mastra rows without loading `@mastra/*` (a lint
 * test walks the import graph): the threads of a store, a thread's changes (its memory versions)
 * and what the agent had in memory after any change; the workflow runs, each run's snapshots and
 * the snapshot after any persist; the observational memory records of a thread or resource and
 * any version of a record. The storage domains write with the same
 * layout (refs.ts, values.ts).
 *
 * @example
 * ```ts
 * import { mastraThreadState } from '@session-checkpoint/mastra/rows';
 * const { messages } = await mastraThreadState(store, { threadId: 'thread-1', step: 2 });
 * ```
 *
 * @packageDocumentation
 */
export { mastraThreads, mastraThreadTimeline, mastraThreadState, type MastraChangeEntry, type MastraRowsPlace, type MastraThreadState, type MastraThreadSummary } from './threads.js';
export { mastraRuns, mastraRunWorkflows, mastraRunTimeline, mastraRunState, type MastraRunState, type MastraRunSummary, type MastraSnapshotEntry } from './runs.js';
export { mastraObservationalMemory, mastraObservationalMemoryVersion, OM_KINDS, type MastraObservationalMemorySummary, type MastraObservationalMemoryVersion, type StoredChunk, type StoredObservationalMemory } from './observational-memory.js';
export { KINDS, MASTRA_NAMESPACE } from './namespace.js';
export type { ChangePayload, StoredMessage, StoredThread } from './types.js';
export type { StoredRun } from './workflow-types.js';
