import type { CheckpointStore } from '@session-checkpoint/core';
import type { LanggraphTimelineEntry, RowsPlace, TimelinePage } from './types.js';

/** Options of {@link langgraphTimeline}. */
export interface LanggraphTimelineOptions extends RowsPlace {
  threadId: string;
  /** Default is `""` (the root graph). */
  checkpointNs?: string;
  /** Checkpoints per page, 1 to 1000. Default is `100`. */
  limit?: number;
  /** `next_cursor` of the previous page. Default is the newest page. */
  cursor?: string;
}

/**
 * One page of a thread's checkpoints in one checkpoint namespace, newest first (by checkpoint id,
 * as `list` orders them). Reads only the rows of the page (one range read of the checkpoint rows
 * with their writes, one of their part rows), never a state: each entry carries its ids, times,
 * stored bytes, metadata and the channels it changed. A row that fails verification (or is not a
 * row the saver writes) is an entry with `status: "failed"` and the error, never left out.
 *
 * @example
 * ```ts
 * let page = await langgraphTimeline(store, { threadId: 'chat-1', limit: 50 });
 * while (page.next_cursor) page = await langgraphTimeline(store, { threadId: 'chat-1', limit: 50, cursor: page.next_cursor });
 * ```
 */
export async function langgraphTimeline(store: CheckpointStore, options: LanggraphTimelineOptions): Promise<TimelinePage<LanggraphTimelineEntry>> {
  void store;
  void options;
  throw new Error('not yet');
}
