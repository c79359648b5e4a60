import { CheckpointNotFoundError, type CheckpointStore } from '@session-checkpoint/core';
import { AI_SDK_NAMESPACE } from './namespace.js';
import { chatMessages } from './save-rows.js';
import type { ChatRowsPlace, ChatState } from './types.js';

/** Options of {@link chatState}. */
export interface ChatStateOptions extends ChatRowsPlace {
  chatId: string;
  /** The chat after this save (1 is the first). Default is the newest save. */
  save?: number;
}

/**
 * A chat's messages after one save, verified and decoded by the chat store's own decoder: equal to
 * what `loadChat` returned right after that save (before the SDK's validation, which `loadChat` adds).
 *
 * @throws CheckpointNotFoundError when the chat has no saves.
 * @throws CheckpointIntegrityError naming the row when a row fails verification.
 * @example
 * ```ts
 * const { messages } = await chatState(store, { chatId: 'chat-1', save: 2 });
 * ```
 */
export async function chatState(store: CheckpointStore, options: ChatStateOptions): Promise<ChatState> {
  const namespace = options.namespace ?? AI_SDK_NAMESPACE;
  const { messages, save } = await chatMessages(store, namespace, options.chatId, options.save);
  if (save === 0) throw new CheckpointNotFoundError(`no AI SDK chat '${options.chatId}' in namespace '${namespace}'`);
  return { family: 'ai-sdk', namespace, chat_id: options.chatId, save, messages };
}
