/**
 * @session-checkpoint/bundle: export and import of namespaces as bundles
 * (`ellmos.session-checkpoint-export.v1`), interchangeable with the Python reference, over any
 * `CheckpointStore`. Payload numbers travel exactly as stored: bundles are read with a lossless
 * JSON reader and written from the stored canonical text.
 *
 * @example
 * ```ts
 * import { writeBundleFile, readBundleFile, importBundle } from '@session-checkpoint/bundle';
 * await writeBundleFile(source, 'app.json', { namespace: 'app' });
 * await importBundle(target, await readBundleFile('app.json', target.limits), { apply: true });
 * ```
 *
 * @packageDocumentation
 */
export * from './bundle-format.js';
export type * from './progress.js';
export * from './export/export-bundle.js';
export { serializeBundle } from './export/serialize-bundle.js';
export * from './export/write-bundle-file.js';
export { writeFileAtomic, type ChunkWriter, type WriteFileAtomicOptions } from './export/atomic-file.js';
export {
  assertNotStorePath,
  prepareExportTarget,
  resolveRealPath,
  type ExportTarget,
  type FileIdentity,
} from './export/store-path-guard.js';
export { fileKind, namingPath, quotePath } from './export/file-kind.js';
export * from './import/read-bundle-file.js';
export { decodeUtf8Strict, utf8ErrorMessage } from './import/utf8-decode.js';
export * from './import/parse-bundle.js';
export { importCandidate, type ImportCandidate } from './import/import-candidate.js';
export * from './import/import-plan.js';
export * from './import/import-bundle.js';
