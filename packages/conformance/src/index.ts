/**
 * @session-checkpoint/conformance: the contract every storage adapter must pass, independent of
 * the test runner. See `runConformanceSuite`.
 *
 * @packageDocumentation
 */
export { runConformanceSuite } from './run-conformance-suite.js';
export { CONFORMANCE_GROUPS, rejectsWith, type ConformanceCase } from './cases.js';
export type { CaseContext } from './context.js';
export type * from './types.js';
