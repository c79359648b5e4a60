import type { CommandAction } from './command-context.js';

/**
 * Every built-in command's action, by command id, loaded on use. The oclif command classes
 * (`src/commands/`) run the same actions; `registry.test.ts` checks that this table names exactly
 * the commands of the oclif manifest.
 *
 * @example
 * ```ts
 * const action = await ACTIONS.get!();
 * ```
 */
export const ACTIONS: Readonly<Record<string, () => Promise<CommandAction>>> = {
  create: async () => (await import('./create-checkpoint.js')).createCheckpoint,
  delete: async () => (await import('./delete-checkpoint.js')).deleteCheckpoint,
  diff: async () => (await import('./diff-states.js')).diffStates,
  export: async () => (await import('./export-bundle.js')).exportBundle,
  get: async () => (await import('./get-checkpoint.js')).getCheckpoint,
  history: async () => (await import('./session-history.js')).sessionHistory,
  import: async () => (await import('./import-bundle.js')).importBundle,
  inspect: async () => (await import('./inspect-store.js')).inspectStore,
  init: async () => (await import('./init-store.js')).initStore,
  list: async () => (await import('./list-checkpoints.js')).listCheckpoints,
  migrate: async () => (await import('./migrate-checkpoints.js')).migrateCheckpoints,
  prune: async () => (await import('./prune-checkpoints.js')).pruneCheckpoints,
  sessions: async () => (await import('./list-sessions.js')).listSessions,
  state: async () => (await import('./show-state.js')).showState,
  threads: async () => (await import('./list-threads.js')).listThreads,
  verify: async () => (await import('./verify-store.js')).verifyStore,
};
