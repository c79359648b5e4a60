import type { CheckpointStore } from '@session-checkpoint/core';
import type { ThreadSelector, Timeline } from './types.js';

/** Options of {@link readTimeline}. */
export interface TimelineOptions extends ThreadSelector {
  /** Entries per page, 1 to 1000. Default is `100`. */
  limit?: number;
  /** `next_cursor` of the previous page. Default is the newest page. */
  cursor?: string;
}

/**
 * One page of a thread's timeline, newest first, cursor-based: reads the page's rows only (no
 * state is rebuilt), so a thread of 10,000 checkpoints pages as fast as one of 10. Each entry
 * carries its ids, parent, times, stored bytes and verification status; a failed row is an entry
 * with `status: "failed"` and the error.
 *
 * @example
 * ```ts
 * const page = await readTimeline(store, { threadId: 't-1', limit: 50 });
 * const older = await readTimeline(store, { threadId: 't-1', limit: 50, cursor: page.next_cursor! });
 * ```
 */
export async function readTimeline(store: CheckpointStore, options: TimelineOptions): Promise<Timeline> {
  void store;
  void options;
  throw new Error('not yet');
}
