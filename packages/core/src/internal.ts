/**
 * `@session-checkpoint/core/internal`: helpers the packages of this repository share (bundle, CLI,
 * langgraph, store-kysely, tools). **No semver promise**: any name here may change or go in any release,
 * patch releases included. Outside code should use `@session-checkpoint/core` (or `./hash`); if you
 * need something from here, open an issue so it can be made public on purpose.
 *
 * @packageDocumentation
 */
export { resolveLimits } from './limits.js';
export * from './validation/fields.js';
export * from './validation/integers.js';
export * from './validation/timestamp.js';
export * from './port/ordering.js';
export * from './port/transaction-scope.js';
export { prepareCheckpoint } from './store/prepare.js';
export * from './store/verify-row.js';
export * from './lossless/index.js';
export * from './python/index.js';
export * from './cache/two-generation-cache.js';
export * from './store/store-argument.js';
export * from './store/checked-rows.js';
export * from './store/display-rows.js';
export { looksSealed, parseEnvelope } from './seal/row-envelope.js';
export { SEALED_BUNDLE_FORMAT } from './seal/sealed-import.js';
export { isIdLimitError } from './port/id-limit.js';
