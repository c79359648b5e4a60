/**
 * `@session-checkpoint/bundle/internal`: file helpers the CLI shares with bundles, so that `--input`
 * files are read with the same caps and the same strict UTF-8 rules as bundle files. **No semver
 * promise**: any name here may change or go in any release, patch releases included.
 *
 * @packageDocumentation
 */
export { readCappedTextFile, type ReadCappedOptions } from './import/read-bundle-file.js';
export { decodeUtf8Strict } from './import/utf8-decode.js';
