import { CheckpointError, CheckpointIntegrityError, CheckpointStore, MemoryAdapter, StoreNotFoundError } from '@session-checkpoint/core';
import { UsageError } from '../errors/usage-error.js';
import { stderrProgress } from '../progress/stderr-progress.js';
import type { CommandContext } from './command-context.js';

/** Flags of `migrate`. */
export interface MigrateFlags {
  /** The official saver: `sqlite:PATH` or `postgres://URL[?schema=S]`. */
  from: string;
  /** Write; without it the command is a dry run. */
  apply: boolean;
  /** Copy from the store into the official saver instead. */
  reverse: boolean;
  /** Store namespace of the LangGraph rows; `langgraph` when absent. */
  namespace?: string | undefined;
}

/** Differences shown in the error message when the verification finds some. */
const SHOWN_DIFFERENCES = 5;

/**
 * An optional package the command needs is not installed (same name and message as the langgraph
 * package's own `MissingPackageError`, which cannot be imported when that package is the one missing).
 */
class MissingPackageError extends CheckpointError {
  constructor(packageName: string, why: string) {
    super(`${why} needs ${packageName}, which is not installed: run npm install ${packageName}`);
    this.name = 'MissingPackageError';
  }
}

/** `@session-checkpoint/langgraph`, loaded only here, so that the CLI starts without LangGraph. */
async function langgraph(): Promise<typeof import('@session-checkpoint/langgraph')> {
  try {
    return await import('@session-checkpoint/langgraph');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    // The package, or one of its peers (@langchain/core, @langchain/langgraph-checkpoint).
    const missing = /'(@[^/']+\/[^/']+|[^/'@][^/']*)/.exec(String((error as Error).message))?.[1] ?? '@session-checkpoint/langgraph';
    throw new MissingPackageError(missing.startsWith('@session-checkpoint/') || missing.startsWith('@langchain/') ? missing : '@session-checkpoint/langgraph', 'migrate');
  }
}

/**
 * `migrate`: copies every LangGraph thread of SqliteSaver or PostgresSaver into the store (with
 * `--reverse`, from the store into the saver): `{ dry_run, direction, threads, checkpoints, writes,
 * present, verification }`. Any difference the verification finds fails the command with
 * `CheckpointIntegrityError`.
 *
 * @example
 * ```ts
 * await migrateCheckpoints(context); // { dry_run: true, direction: 'in', threads: 3, checkpoints: 120, ... }
 * ```
 */
export async function migrateCheckpoints({ flags, openStore }: CommandContext<MigrateFlags>): Promise<Record<string, unknown>> {
  if (!/^(sqlite:|postgres(ql)?:\/\/)/i.test(flags.from)) throw new UsageError('--from must be sqlite:PATH or postgres://URL[?schema=S]');
  const lg = await langgraph();
  const official = await lg.openOfficialSaver(flags.from, { ifMissing: flags.reverse ? (flags.apply ? 'create' : 'empty') : 'error' });
  try {
    // Like import: a missing store is created, as the target; as the source it must exist.
    const store = flags.reverse || flags.apply ? await openStore({ create: !flags.reverse }) : await openStoreOrEmpty(openStore);
    const ours = new lg.SessionCheckpointSaver(store, flags.namespace === undefined ? {} : { namespace: flags.namespace });
    const [source, target] = flags.reverse ? [ours, official.saver] : [official.saver, ours];
    const onProgress = stderrProgress();
    const report = await lg.migrateCheckpoints(source, target, { apply: flags.apply, ...(onProgress === undefined ? {} : { onProgress }) });
    const differences = report.verification?.differences ?? [];
    if (differences.length > 0) {
      const shown = differences.slice(0, SHOWN_DIFFERENCES).map((d) => `thread ${d.threadId} ns '${d.checkpointNs}' checkpoint ${d.checkpointId ?? '(latest)'}: ${d.what}`);
      throw new CheckpointIntegrityError(
        `${differences.length} difference(s) between source and target after copying ${report.checkpoints} checkpoint(s): ${shown.join('; ')}${differences.length > SHOWN_DIFFERENCES ? '; ...' : ''}`,
      );
    }
    return {
      dry_run: report.dryRun,
      direction: flags.reverse ? 'out' : 'in',
      threads: report.threads,
      checkpoints: report.checkpoints,
      writes: report.writes,
      present: report.present,
      verification: report.verification === undefined ? null : { checkpoints: report.verification.checkpoints, differences: [] },
    };
  } finally {
    await official.close();
  }
}

/** The store, or an empty one in memory when it does not exist yet: a dry run creates nothing. */
async function openStoreOrEmpty(openStore: CommandContext<MigrateFlags>['openStore']): Promise<CheckpointStore> {
  try {
    return await openStore();
  } catch (error) {
    if (error instanceof StoreNotFoundError || (error as { name?: unknown }).name === 'StoreNotFoundError') return new CheckpointStore(new MemoryAdapter());
    throw error;
  }
}
