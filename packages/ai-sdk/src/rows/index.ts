/**
 * `@session-checkpoint/ai-sdk/rows`: reads the rows of AI SDK chats without loading the `ai`
 * package (no `ai` or `@ai-sdk/*` import, directly or through any module it loads; a lint test
 * checks the import graph): the chats of a store, a paginated timeline of saves (edits and
 * regenerations show as saves that replace messages), and the messages after any save. The chat
 * store decodes with the same modules.
 *
 * @example
 * ```ts
 * import { chatState } from '@session-checkpoint/ai-sdk/rows';
 * const { messages } = await chatState(store, { chatId: 'chat-1' });
 * ```
 *
 * @packageDocumentation
 */
export { aiSdkChats } from './chats.js';
export { chatTimeline, type ChatTimelineOptions } from './timeline.js';
export { chatState, type ChatStateOptions } from './state.js';
export { AI_SDK_NAMESPACE, PART_KIND, SAVE_KIND } from './namespace.js';
export type { PartPayload, SavePayload } from './save-rows.js';
export type { ChatRowsPlace, ChatState, ChatSummary, ChatTimelineEntry, RowError, TimelinePage } from './types.js';
