/**
 * `@session-checkpoint/langgraph/rows`: reads the LangGraph saver's rows back into the JSON the
 * saver would give, without loading LangGraph or LangChain (no `@langchain/*` import, directly or
 * through any module it loads; `rows-imports.test.ts` checks the import graph). The saver and these
 * readers share one rebuild code (read/rebuild.ts, read/entries.ts and format/), so they
 * cannot drift apart. Every row read is verified by the store; a checkpoint whose rows fail is an
 * error naming it ({@link langgraphState}) or a `"failed"` timeline entry ({@link langgraphTimeline}).
 *
 * @example
 * ```ts
 * import { langgraphState } from '@session-checkpoint/langgraph/rows';
 * const state = await langgraphState(store, { threadId: 'chat-1' }); // the latest checkpoint
 * console.log(state.values.messages);
 * ```
 *
 * @packageDocumentation
 */
export { langgraphThreads } from './threads.js';
export { langgraphTimeline, type LanggraphTimelineOptions } from './timeline.js';
export { langgraphChannelValues, langgraphState, langgraphWrites } from './state.js';
export { LANGGRAPH_NAMESPACE } from '../format/payloads.js';
export type {
  CheckpointSelector,
  LanggraphState,
  LanggraphThreadSummary,
  LanggraphTimelineEntry,
  LanggraphWrite,
  OfficialSource,
  PendingWriteTuple,
  RowError,
  RowsPlace,
  TimelinePage,
} from './types.js';
