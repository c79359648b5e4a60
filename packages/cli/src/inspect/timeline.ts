import type { CheckpointStore } from '@session-checkpoint/core';
import { langgraphTimeline } from '@session-checkpoint/langgraph/rows';
import { sessionTimeline } from '@session-checkpoint/openai-agents/rows';
import { frameworkTimeline, isFrameworkFamily } from './framework-families.js';
import { plainTimeline } from './plain-rows.js';
import { resolveFamily } from './threads.js';
import type { ThreadSelector, Timeline } from './types.js';
import { CheckpointValidationError } from '@session-checkpoint/core';

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
  const { family, namespace } = await resolveFamily(store, options);
  const limit = options.limit ?? 100;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) throw new CheckpointValidationError('limit must be an integer from 1 to 1000');
  const paging = { limit, ...(options.cursor === undefined ? {} : { cursor: options.cursor }) };
  const head = { family, namespace, thread_id: options.threadId, checkpoint_ns: family === 'langgraph' ? (options.checkpointNs ?? '') : '' };
  if (family === 'langgraph') return { ...head, ...(await langgraphTimeline(store, { namespace, threadId: options.threadId, checkpointNs: options.checkpointNs ?? '', ...paging })) };
  if (isFrameworkFamily(family)) return { ...head, ...(await frameworkTimeline(store, family, namespace, options, paging)) };
  if (family === 'openai-agents') return { ...head, ...(await sessionTimeline(store, { namespace, sessionId: options.threadId, ...paging })) };
  return { ...head, ...(await plainTimeline(store, namespace, options.threadId, limit, options.cursor)) };
}
