/**
 * `@session-checkpoint/core/internal`: the toolkit plus what only the CLI uses. **No semver
 * promise**: any name here may change or go in any release, patch releases included. Only a
 * package that pins `@session-checkpoint/core` to an exact version may import it (the CLI does;
 * tools/pack-test fails a tarball that imports it under a range). Packages built on core use
 * `@session-checkpoint/core/toolkit` (docs/decisions/0024-core-toolkit.md).
 *
 * @packageDocumentation
 */
export * from './toolkit.js';
export { checkRows } from './store/checked-rows.js';
