/**
 * @session-checkpoint/ai-sdk: a verified chat store for the Vercel AI SDK's `UIMessage[]` over a
 * session-checkpoint store (SQLite, PostgreSQL, memory or any adapter). Every save is a
 * checkpoint holding only the messages it adds; edits and regenerations are a history.
 *
 * @example
 * ```ts
 * import { createChatStore } from '@session-checkpoint/ai-sdk';
 * const chats = createChatStore(await openSqliteStore('./chats.sqlite'));
 * await chats.saveChat({ chatId: 'chat-1', messages });
 * ```
 *
 * @packageDocumentation
 */
export { createChatStore, type ChatInfo, type ChatSave, type ChatStore, type ChatStoreOptions, type ChatValidation, type SaveResult } from './chat-store.js';
export { AI_SDK_NAMESPACE, PART_KIND, SAVE_KIND } from './rows/namespace.js';
export type { PartPayload, SavePayload } from './rows/save-rows.js';
