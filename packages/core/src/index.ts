/**
 * @session-checkpoint/core: everything that is not storage. Canonical JSON and the hasher, field
 * validation, limits, errors, the storage port, the `CheckpointStore` facade, the in-memory
 * adapter and the thread API. No runtime dependencies, no side effects on import.
 *
 * @packageDocumentation
 */
export * from './errors.js';
export * from './limits.js';
export type * from './types.js';
export * from './hash.js';
export * from './validation/fields.js';
export * from './validation/timestamp.js';
export type * from './port/adapter.js';
export * from './port/adapter-base.js';
export * from './port/ordering.js';
export * from './store/prepare.js';
export type * from './store/results.js';
export * from './store/verify-row.js';
export * from './store/checkpoint-store.js';
export * from './memory/memory-adapter.js';
export * from './thread/checkpointer.js';
export * from './lossless/index.js';
export * from './python-repr.js';
