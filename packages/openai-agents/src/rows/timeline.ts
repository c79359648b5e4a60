import type { CheckpointStore } from '@session-checkpoint/core';
import type { SessionRowsPlace, SessionTimelineEntry, TimelinePage } from './types.js';

/** Options of {@link sessionTimeline}. */
export interface SessionTimelineOptions extends SessionRowsPlace {
  sessionId: string;
  /** Rows per page, 1 to 1000. Default is `100`. */
  limit?: number;
  /** `next_cursor` of the previous page. Default is the newest page. */
  cursor?: string;
}

/**
 * One page of a session's item rows, newest first, without decoding items: positions, times,
 * bytes and verification status per row. A row that fails verification is an entry with
 * `status: "failed"`, never left out.
 *
 * @example
 * ```ts
 * const page = await sessionTimeline(store, { sessionId: 'user-42', limit: 20 });
 * ```
 */
export async function sessionTimeline(store: CheckpointStore, options: SessionTimelineOptions): Promise<TimelinePage<SessionTimelineEntry>> {
  void store;
  void options;
  throw new Error('not yet');
}
