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
 * This entry is the semver promise (a test pins its names). The file helpers the CLI shares
 * (capped reads, strict UTF-8 decoding) live in `@session-checkpoint/bundle/internal`, which has none.
 *
 * @packageDocumentation
 */
export * from './bundle-format.js';
export type * from './progress.js';
export { exportBundle, type ExportOptions } from './export/export-bundle.js';
export { serializeBundle } from './export/serialize-bundle.js';
export * from './export/write-bundle-file.js';
export { readBundleFile } from './import/read-bundle-file.js';
export * from './import/parse-bundle.js';
export type { ImportCandidate } from './import/import-candidate.js';
export { planImport, type ImportPlan } from './import/import-plan.js';
export * from './import/import-bundle.js';
