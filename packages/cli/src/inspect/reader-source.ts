import type { CheckpointStore } from '@session-checkpoint/core';
import { diffDocuments, diffSteps } from './diff.js';
import { readState, readWrites, stateDocument } from './state.js';
import { listThreads } from './threads.js';
import { readTimeline } from './timeline.js';
import { statsJson } from '../output/upkeep.js';
import type { InspectSource, ThreadRef } from './source.js';
import type { ThreadSelector } from './types.js';

function selector(ref: ThreadRef): ThreadSelector {
  return { family: ref.family, namespace: ref.namespace, threadId: ref.threadId, ...(ref.checkpointNs === undefined ? {} : { checkpointNs: ref.checkpointNs }) };
}

/**
 * The viewer's {@link InspectSource} over a store, through the inspection readers (index.ts):
 * every state it returns has been verified, and a row that fails comes back as a failed timeline
 * entry or a `CheckpointIntegrityError`, never silently skipped.
 *
 * @param options.namespace Only threads of this store namespace. Default: each family's default namespace.
 * @example
 * ```ts
 * const source = readerSource(store, {});
 * const threads = await source.threads();
 * ```
 */
export function readerSource(store: CheckpointStore, options: { namespace?: string | undefined }): InspectSource {
  return {
    threads: () => listThreads(store, options.namespace === undefined ? {} : { namespace: options.namespace }),
    timeline: (ref, page) => readTimeline(store, { ...selector(ref), limit: page.limit, ...(page.cursor === undefined ? {} : { cursor: page.cursor }) }),
    state: (ref, id) => readState(store, { ...selector(ref), ...(id === undefined ? {} : { checkpointId: id }) }),
    writes: (ref, id) => readWrites(store, { ...selector(ref), checkpointId: id }),
    diff: async (ref, from, to) => (await diffSteps(store, { ...selector(ref), from, to })).patch,
    stats: async () => {
      const scope = options.namespace === undefined ? {} : { namespace: options.namespace };
      return statsJson(await store.stats(scope), await store.pins(scope));
    },
    change: async (ref, entry) => {
      if (entry.parent_checkpoint_id !== null) return (await diffSteps(store, { ...selector(ref), from: entry.parent_checkpoint_id, to: entry.checkpoint_id })).patch;
      const document = stateDocument(await readState(store, { ...selector(ref), checkpointId: entry.checkpoint_id }));
      return diffDocuments(Array.isArray(document) ? [] : {}, document);
    },
  };
}
