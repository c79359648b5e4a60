import { CheckpointError } from '@session-checkpoint/core';
import type { OfficialStore } from '@session-checkpoint/langgraph/official';
import { UsageError } from '../errors/usage-error.js';
import type { InspectSource, ThreadRef } from '../inspect/source.js';
import type { ThreadSelector } from '../inspect/types.js';

/*
 * `--from` / `--source`: an official LangGraph saver's store to read instead of ours (threads,
 * state, diff, inspect). `diff` already uses `--from` for a checkpoint id, so there the flag is
 * `--source`; the other commands take both names. Opening is `@session-checkpoint/langgraph/official`'s
 * work: the CLI only picks the location.
 */

/** What the source flags parse to. */
export interface SourceFlags {
  readonly from?: string | undefined;
  readonly source?: string | undefined;
  readonly store?: string | undefined;
  readonly 'database-url'?: string | undefined;
  readonly schema?: string | undefined;
  readonly namespace?: string | undefined;
  readonly family?: string | undefined;
}

/**
 * The official store location the flags name, or `undefined` when they name none (read our store).
 *
 * @throws UsageError for both `--from` and `--source`, a store flag beside them, or a location of neither form.
 */
export function officialLocation(flags: SourceFlags): string | undefined {
  if (flags.from !== undefined && flags.source !== undefined) throw new UsageError('give --from or --source (the same flag), not both');
  const location = flags.from ?? flags.source;
  if (location === undefined) return undefined;
  if (!/^(sqlite:|postgres(ql)?:\/\/)/i.test(location)) throw new UsageError('--from/--source must be sqlite:PATH (a SqliteSaver file) or postgres://URL (a PostgresSaver database)');
  if (flags.store !== undefined || flags['database-url'] !== undefined) throw new UsageError('--from/--source reads an official saver\'s store: give it instead of --store or --database-url, not with them');
  if (flags.namespace !== undefined) throw new UsageError('--namespace names a namespace of our store; an official saver\'s store has none (use --schema for a PostgresSaver schema)');
  if (flags.family !== undefined && flags.family !== 'langgraph') throw new UsageError('an official saver\'s store holds only LangGraph threads (--family langgraph)');
  return location;
}

/** `@session-checkpoint/langgraph/official`, as loaded. */
export type OfficialLibrary = typeof import('@session-checkpoint/langgraph/official');

/**
 * Opens the official store at `location`, read-only (`--schema` is the PostgresSaver schema), runs
 * `work` on it and closes it. `@session-checkpoint/langgraph` is loaded only here; when it is
 * missing the error names it.
 *
 * @example
 * ```ts
 * return withOfficial('sqlite:checkpoints.db', undefined, (lib, store) => lib.officialThreads(store));
 * ```
 */
export async function withOfficial<T>(location: string, schema: string | undefined, work: (lib: OfficialLibrary, store: OfficialStore) => Promise<T>): Promise<T> {
  const lib = await officialLibrary();
  const store = await lib.openOfficialStore(location, schema === undefined ? {} : { schema });
  try {
    return await work(lib, store);
  } finally {
    await store.close();
  }
}

/** Loads `@session-checkpoint/langgraph/official`, or fails with a MissingPackageError naming the package. */
export async function officialLibrary(): Promise<OfficialLibrary> {
  let lib: OfficialLibrary;
  try {
    lib = await import('@session-checkpoint/langgraph/official');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND' && code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw error;
    throw Object.assign(new CheckpointError('reading --from needs @session-checkpoint/langgraph, which is not installed: run npm install @session-checkpoint/langgraph'), { name: 'MissingPackageError' });
  }
  return lib;
}

/**
 * The viewer's source over an open official store, and the thread `selector` names in it: what
 * `timeline`, `state --step` and `diff --from-step` read through, as they do for our store
 * (`storeThread`). Call it inside {@link withOfficial}, where the package is loaded.
 */
export async function officialThread(store: OfficialStore, selector: ThreadSelector): Promise<{ source: InspectSource; ref: ThreadRef }> {
  const { officialSource } = await import('../inspect/official-source.js');
  return { source: officialSource(store), ref: { family: 'langgraph', namespace: store.schema, threadId: selector.threadId, checkpointNs: selector.checkpointNs ?? '' } };
}
