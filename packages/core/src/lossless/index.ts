/**
 * Lossless JSON utilities shared by bundles and the CLI: a reader that keeps number lexemes, member
 * order and source spans ({@link parseJsonTree}), and a writer with the Python reference's exact
 * layout ({@link formatPythonJson}) that embeds stored payload text untouched ({@link RawJson}).
 */
export type * from './json-node.js';
export { isIntegerLexeme } from './json-node.js';
export { parseJsonTree, DEFAULT_TREE_MAX_DEPTH, type ParseJsonTreeOptions } from './parse-json-tree.js';

export { RawJson, isRawJson } from './raw-json.js';
export { formatPythonJson } from '../python/json-layout.js';
