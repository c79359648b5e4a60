import type { CheckpointStore } from '@session-checkpoint/core';
import type { LanggraphThreadSummary, RowsPlace } from './types.js';

/**
 * The LangGraph threads of a store namespace (every session whose rows the saver wrote), most
 * recently active first. Reads every row of those threads once (counts and bytes need them).
 *
 * @param options.namespace Store namespace. Default is `"langgraph"`.
 * @param options.threadId Only this thread. Default is every thread.
 * @example
 * ```ts
 * for (const t of await langgraphThreads(store)) console.log(t.thread_id, t.count, t.bytes);
 * ```
 */
export async function langgraphThreads(store: CheckpointStore, options: RowsPlace & { threadId?: string } = {}): Promise<LanggraphThreadSummary[]> {
  void store;
  void options;
  throw new Error('not yet');
}
