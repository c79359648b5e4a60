/**
 * @session-checkpoint/core: everything that is not storage. The `CheckpointStore` facade and the
 * `Checkpointer` thread API for users; the storage port (`CheckpointAdapter`,
 * `CheckpointAdapterBase`) and the reference `MemoryAdapter` for adapter authors; the errors, the
 * record types, the limits, keys for sealed stores (`Keyring`, key files), and canonical JSON with its SHA-256 hash (also importable alone from
 * `@session-checkpoint/core/hash`). No runtime dependencies, no side effects on import.
 *
 * This entry is the semver promise: a test pins its exact list of names. The building blocks of
 * packages built on core (row readers, ordering, field checks, lossless JSON, the Python tool's
 * output forms) are `@session-checkpoint/core/toolkit`, pinned and under semver too.
 *
 * @example
 * ```ts
 * import { CheckpointStore, MemoryAdapter } from '@session-checkpoint/core';
 * const store = new CheckpointStore(new MemoryAdapter());
 * const cp = await store.create({ namespace: 'app', sessionId: 's-1', payload: { step: 1 } });
 * (await store.get(cp.id, { namespace: 'app' })).payload; // { step: 1 }, verified on read
 * ```
 *
 * @packageDocumentation
 */
export * from './errors.js';
export { DEFAULT_LIMITS, type CheckpointLimits } from './limits.js';
export type * from './types.js';
export * from './hash.js';
export type * from './port/adapter.js';
export { CheckpointAdapterBase } from './port/adapter-base.js';
export { MAX_CHECKPOINT_ID, idLimitError } from './port/id-limit.js';
export type { CreateCheckpointInput, PreparedCheckpoint } from './store/prepare.js';
export type * from './store/results.js';
export * from './store/checkpoint-store.js';
export { scheduleIdleExpiry, type ExpireIdleOptions, type ExpireIdleResult, type ExpiredSession, type PinnedSession, type ScheduledExpiry, type ScheduledExpiryOptions } from './store/idle-expiry.js';
export type { NamespaceStats, SessionStats, StoreStats } from './store/store-stats.js';
export * from './memory/memory-adapter.js';
export * from './thread/checkpointer.js';
export { META_NAMESPACE } from './port/meta-rows.js';
export { Keyring } from './seal/keyring.js';
export { KEY_FILE_FORMAT, generateKeyFile, loadKeyFile, writeKeyFile } from './seal/key-file.js';
export type { SealProblem, SealReport } from './seal/store-seal.js';
export type { RekeyOptions, RekeyReport } from './seal/rekey.js';
export type { SealedImportOptions } from './seal/sealed-import.js';
