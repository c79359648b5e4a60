/**
 * `@session-checkpoint/cli/plugin`: everything a plugin command needs, and nothing that loads a
 * store driver. A plugin lists `@session-checkpoint/cli` and `@oclif/core` as optional peer
 * dependencies; at run time the host CLI resolves them to its own copies, so a plugin brings no
 * second copy of oclif, Kysely or better-sqlite3 (docs/plugins.md). `Flags` and `Args` are
 * oclif's own.
 *
 * @example
 * ```js
 * import { BaseCommand, namespaceFlag } from '@session-checkpoint/cli/plugin';
 *
 * export default class Count extends BaseCommand {
 *   static description = 'Count the sessions of a namespace.';
 *   static flags = { namespace: namespaceFlag() };
 *   async run() {
 *     const store = await this.openStore();
 *     return { sessions: (await store.sessions({ namespace: this.flags.namespace })).length };
 *   }
 * }
 * ```
 *
 * @packageDocumentation
 */
export { Args, Flags } from '@oclif/core';
export { BaseCommand, type CommandArgs, type CommandFlags } from './base-command.js';
export { UsageError, isUsageError } from './errors/usage-error.js';
export { toErrorOutput, type ErrorJson, type ErrorOutput } from './errors/to-error-json.js';
export { applyFlag, integerFlag, namespaceFlag, storeFlags } from './command/oclif-flags.js';
export { parsePythonInt } from './command/python-int.js';
export { checkpointJson, planJson, sessionJson } from './output/records.js';
export { successJson, writeJson } from './output/write-json.js';
export { readPayloadFile, requireJsonObjectText } from './input/payload-file.js';
export { readInputText, type ReadInputOptions } from './input/read-input-text.js';
export { openStore, type OpenStoreOptions } from './store/open-store.js';
export { DATABASE_URL_ENV, STORE_ENV, describeStore, selectStore, type StoreFlagValues, type StoreSelection } from './store/store-selection.js';
export { stderrProgress, type ProgressEvent } from './progress/stderr-progress.js';
