/**
 * `@session-checkpoint/bundle/internal`: file helpers the CLI shares with bundles, so that `--input`
 * files are read with the same caps and the same strict UTF-8 rules as bundle files, and `--output`
 * is checked (never a device, a symlink, the store or its companions) before the store opens. **No semver
 * promise**: any name here may change or go in any release, patch releases included.
 *
 * @packageDocumentation
 */
export { readCappedTextFile, type ReadCappedOptions } from './import/read-bundle-file.js';
export { decodeUtf8Strict } from './import/utf8-decode.js';
export { writeFileAtomic, type ChunkWriter, type WriteFileAtomicOptions } from './export/atomic-file.js';
export {
  assertNotStorePath,
  prepareExportTarget,
  resolveRealPath,
  type ExportTarget,
  type FileIdentity,
} from './export/store-path-guard.js';
export { fileKind, namingPath } from './export/file-kind.js';
export { utf8ErrorMessage } from './import/utf8-decode.js';
