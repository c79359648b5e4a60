/**
 * The inspection readers: threads, timelines, states, writes and diffs of a store, for every
 * family, in JSON. The CLI's `threads`, `state` and `diff` commands and the `inspect` viewer call
 * these, never the frameworks: family rows are read by the framework-free `rows` subpaths of
 * `@session-checkpoint/langgraph` and `@session-checkpoint/openai-agents`. Load this module with a
 * dynamic `import()` so that other commands do not pay for it.
 *
 * @example
 * ```ts
 * const { listThreads, readState } = await import('../inspect/index.js');
 * const threads = await listThreads(store);
 * const state = await readState(store, { threadId: threads[0].thread_id });
 * ```
 */
export { listThreads, resolveFamily } from './threads.js';
export { readTimeline, type TimelineOptions } from './timeline.js';
export { readState, readWrites, stateDocument } from './state.js';
export { diffDocuments, diffSteps, type DiffResult } from './diff.js';
export { firstChange, lineFirstChange, type FirstChangeOptions, type LanggraphLineSource } from './first-change.js';
export { valueAtPointer, parsePointer } from './pointer.js';
export * from './types.js';
export { hideInternalChannels, hideInternalOperations, isInternalChannel } from './internal.js';
export { checkpointAtStep, messagePreview, storyTimeline, threadLines, type StoryEntry, type StoryTimeline } from './story.js';
export { storeThread } from './store-thread.js';
