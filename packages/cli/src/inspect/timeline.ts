import type { CheckpointStore } from '@session-checkpoint/core';
import { langgraphTimeline } from '@session-checkpoint/langgraph/rows';
import { sessionTimeline } from '@session-checkpoint/openai-agents/rows';
import { frameworkTimeline, isFrameworkFamily } from './framework-families.js';
import { sealStatus } from '../output/records.js';
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
  // The framework readers check rows through store.checkRows: on a store opened with keys a verified step's rows passed their seals.
  const seal = sealStatus(store);
  const sealed = <E extends { status: string }>(page: { entries: E[]; next_cursor: string | null }) =>
    seal === undefined ? page : { ...page, entries: page.entries.map((entry) => (entry.status === 'verified' ? { ...entry, seal } : entry)) };
  if (family === 'langgraph') return { ...head, ...sealed(await langgraphTimeline(store, { namespace, threadId: options.threadId, checkpointNs: options.checkpointNs ?? '', ...paging })) };
  if (isFrameworkFamily(family)) return { ...head, ...sealed(await frameworkTimeline(store, family, namespace, options, paging)) };
  if (family === 'openai-agents') return { ...head, ...sealed(await sessionTimeline(store, { namespace, sessionId: options.threadId, ...paging })) };
  return { ...head, ...(await plainTimeline(store, namespace, options.threadId, limit, options.cursor)) };
}
