/**
 * @session-checkpoint/cli: the `session-checkpoint` command line, and what plugin authors need
 * to build commands that behave like the built-in ones (store flags, JSON output, error mapping).
 *
 * @example
 * ```ts
 * import { BaseCommand, namespaceFlag } from '@session-checkpoint/cli';
 *
 * export default class Stats extends BaseCommand<typeof Stats> {
 *   static override flags = { namespace: namespaceFlag() };
 *   async run() {
 *     const store = await this.openStore();
 *     return { sessions: (await store.sessions({ namespace: this.flags.namespace })).length };
 *   }
 * }
 * ```
 *
 * @packageDocumentation
 */
export { run } from '@oclif/core';
export { BaseCommand, type CommandArgs, type CommandFlags } from './base-command.js';
export { main } from './main.js';
export { UsageError, isUsageError } from './errors/usage-error.js';
export { toErrorOutput, type ErrorJson, type ErrorOutput } from './errors/to-error-json.js';
export { applyFlag, integerFlag, namespaceFlag } from './flags/common-flags.js';
export { parsePythonInt } from './flags/python-int.js';
export { storeFlags } from './flags/store-flags.js';
export { checkpointJson, planJson, sessionJson } from './output/records.js';
export { successJson, writeJson } from './output/write-json.js';
export { readPayloadFile, requireJsonObjectText } from './input/payload-file.js';
export { readInputText, type ReadInputOptions } from './input/read-input-text.js';
export { openStore, type OpenStoreOptions } from './store/open-store.js';
export { DATABASE_URL_ENV, STORE_ENV, describeStore, selectStore, type StoreFlagValues, type StoreSelection } from './store/store-selection.js';
export { stderrProgress, type ProgressEvent } from './progress/stderr-progress.js';
