/**
 * @session-checkpoint/conformance: the contract every storage adapter must pass, independent of
 * the test runner. See `runConformanceSuite`; the groups of cases are in `CONFORMANCE_GROUPS`.
 *
 * @packageDocumentation
 */
export { DEFAULT_CASE_TIMEOUT_MS, runConformanceGroup, runConformanceSuite } from './run-conformance-suite.js';
export { CONFORMANCE_GROUPS } from './conformance-groups.js';
export { ConformanceFailure, ensure, ensureEqual, rejectsWith } from './assert.js';
export type { CaseContext } from './context.js';
export type * from './types.js';
