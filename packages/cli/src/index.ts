/**
 * @session-checkpoint/cli: the `session-checkpoint` command line, and what plugin authors need
 * to build commands that behave like the built-in ones (store flags, JSON output, error mapping).
 *
 * @example
 * ```ts
 * // Plugins import the same API from the light subpath '@session-checkpoint/cli/plugin'.
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
export { main } from './main.js';
export * from './plugin.js';
