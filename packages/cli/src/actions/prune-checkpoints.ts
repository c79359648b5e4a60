import type { CommandContext } from './command-context.js';

/** Flags of `prune`. */
export interface PruneFlags {
  /** Delete the selection; without it the command is a dry run. */
  apply: boolean;
  /** Keep the newest N checkpoints of each session. */
  'keep-latest'?: number | undefined;
  /** Namespace to prune. */
  namespace?: string | undefined;
  /** Select checkpoints created before this timestamp. */
  'older-than'?: string | undefined;
  /** Only this session. */
  'session-id'?: string | undefined;
}

/**
 * `prune`: `{ dry_run, selected, deleted }`.
 *
 * @example
 * ```ts
 * await pruneCheckpoints(context); // { dry_run: true, selected: [1, 2], deleted: [] }
 * ```
 */
export async function pruneCheckpoints({ flags, openStore }: CommandContext<PruneFlags>): Promise<Record<string, unknown>> {
  const store = await openStore();
  const result = await store.prune({
    namespace: flags.namespace,
    apply: flags.apply,
    ...(flags['session-id'] === undefined ? {} : { sessionId: flags['session-id'] }),
    ...(flags['keep-latest'] === undefined ? {} : { keepLatest: flags['keep-latest'] }),
    ...(flags['older-than'] === undefined ? {} : { olderThan: flags['older-than'] }),
  });
  return { dry_run: result.dryRun, selected: result.selected, deleted: result.deleted };
}
