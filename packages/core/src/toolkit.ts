/**
 * `@session-checkpoint/core/toolkit`: the building blocks of packages built on core, public and
 * under semver like the main entry (a test pins every name; removing or changing one is a
 * breaking change). The main entry is what an application needs; this subpath is what a package
 * needs that stores its own objects as rows (a framework package such as the LangGraph saver or
 * the OpenAI Agents session), shows them (readers for an inspector), moves them (bundles) or stores
 * them (an adapter). Every member is documented where it is defined.
 *
 * The CLI, an application that pins core to the exact version it was built with, may also use
 * `@session-checkpoint/core/internal`, which has no promise (docs/releasing.md,
 * docs/decisions/0024-core-toolkit.md).
 *
 * @packageDocumentation
 */

// Rows of a framework package: taking the store, reading ranges of rows by source ref (checked
// or raw, for showing a row that fails), cursors, row errors for display, sizes.
export { storeArgument, type StoreTaker } from './store/store-argument.js';
export { checkedByRef, checkedRange, decodeCursor, encodeCursor, rawRange, rowError, utf8Length, type RowError } from './store/display-rows.js';
export { TwoGenerationCache } from './cache/two-generation-cache.js';

// Order: the one ordering of rows and strings every adapter and reader must agree on.
export { compareCodePoints, compareNewestFirst, selectPrunable, sourceRefBounds } from './port/ordering.js';

// Adapters: one way to run a transaction, and the id-limit error the store recognises.
export { runInTransaction } from './port/transaction-scope.js';
export { isIdLimitError } from './port/id-limit.js';
// insertMany: how every adapter refuses a batch whose rows clash among themselves.
export { batchClashError, firstBatchClash } from './port/batch-clash.js';

// Moving rows (bundles): the checks and preparation a write gets, field by field.
export { prepareCheckpoint } from './store/prepare.js';
export { validateId, validateToken } from './validation/fields.js';
export { nonNegativeInteger, positiveInteger } from './validation/integers.js';
export { nowTimestamp } from './validation/timestamp.js';
export { looksSealed } from './seal/row-envelope.js';
export { SEALED_BUNDLE_FORMAT } from './seal/sealed-import.js';

// Lossless JSON and the Python tool's output forms, byte for byte.
export { isIntegerLexeme, parseJsonTree, type JsonNode } from './lossless/index.js';
export { formatPythonJson } from './python/json-layout.js';
export { pythonListRepr, pythonRepr } from './python/repr.js';
export { checkpointRecord, type CheckpointRecord } from './python/as-dict-record.js';
