import type { OfficialStore } from '@session-checkpoint/langgraph/official';
import { officialState, officialStoreStats, officialThreads, officialTimeline, officialWrites } from '@session-checkpoint/langgraph/official';
import { diffDocuments } from './diff.js';
import type { InspectSource, ThreadRef } from './source.js';

function selector(ref: ThreadRef): { threadId: string; checkpointNs: string } {
  return { threadId: ref.threadId, checkpointNs: ref.checkpointNs ?? '' };
}

/**
 * The viewer's {@link InspectSource} over an official saver's store (a SqliteSaver file or a
 * PostgresSaver schema), through `@session-checkpoint/langgraph/official`: the same shapes as the
 * store's readers, every step `unverified` (the rows carry no hash), nothing written.
 *
 * @example
 * ```ts
 * const source = officialSource(await openOfficialStore('sqlite:checkpoints.db'));
 * const threads = await source.threads();
 * ```
 */
export function officialSource(store: OfficialStore): InspectSource {
  const values = async (ref: ThreadRef, id: string) => (await officialState(store, { ...selector(ref), checkpointId: id })).values;
  return {
    threads: () => officialThreads(store),
    timeline: async (ref, page) => {
      const { entries, next_cursor } = await officialTimeline(store, { ...selector(ref), limit: page.limit, ...(page.cursor === undefined ? {} : { cursor: page.cursor }) });
      return { family: 'langgraph', namespace: store.schema, thread_id: ref.threadId, checkpoint_ns: ref.checkpointNs ?? '', entries, next_cursor };
    },
    state: (ref, id) => officialState(store, { ...selector(ref), ...(id === undefined ? {} : { checkpointId: id }) }),
    writes: (ref, id) => officialWrites(store, { ...selector(ref), checkpointId: id }),
    diff: async (ref, from, to) => diffDocuments(await values(ref, from), await values(ref, to)),
    change: async (ref, entry) => diffDocuments(entry.parent_checkpoint_id === null ? {} : await values(ref, entry.parent_checkpoint_id), await values(ref, entry.checkpoint_id)),
    // The sortable table's shape (the `stats` command's for our store): one namespace, the schema;
    // a thread's rows are its checkpoint, write and blob rows, its bytes as the official saver stores them.
    stats: async () => {
      const { threads, totals } = await officialStoreStats(store);
      const sessions = threads.map((t) => ({ session_id: t.thread_id, rows: t.checkpoints + t.writes + t.blobs, bytes: t.bytes, oldest: t.oldest_write, newest: t.newest_write, pinned: false }));
      const rows = totals.checkpoints + totals.writes + totals.blobs;
      return {
        namespace: store.schema,
        totals: { namespaces: 1, sessions: sessions.length, rows, bytes: totals.bytes },
        namespaces: [{ namespace: store.schema, session_count: sessions.length, rows, bytes: totals.bytes, oldest: null, newest: null, sessions }],
        pins: [],
        storage: null,
      };
    },
  };
}
