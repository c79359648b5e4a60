import type { CheckpointStore } from '@session-checkpoint/core';
import { rawRange, utf8Length } from '@session-checkpoint/core/toolkit';
import { AI_SDK_NAMESPACE, SAVE_KIND } from './namespace.js';
import { chatPrefix, savePrefix } from './refs.js';
import { savePayloadOf } from './save-rows.js';
import type { ChatRowsPlace, ChatSummary } from './types.js';

/** Rows per range read of a listing. */
const PAGE = 1000;

/**
 * The chats of a store namespace (chats with save rows), most recently saved first, with their
 * message count, saves, stored bytes and first and latest row time. Reads the namespace's chat
 * rows once without parsing them, then each chat's newest save row, verified.
 *
 * @param options.namespace Default is `"ai-sdk-chats"`.
 * @param options.chatId Only this chat. Default is every chat.
 * @example
 * ```ts
 * for (const c of await aiSdkChats(store)) console.log(c.thread_id, c.count);
 * ```
 */
export async function aiSdkChats(store: CheckpointStore, options: ChatRowsPlace & { chatId?: string } = {}): Promise<ChatSummary[]> {
  const namespace = options.namespace ?? AI_SDK_NAMESPACE;
  const prefix = options.chatId === undefined ? 'chat/' : chatPrefix(options.chatId);
  // Per chat prefix: bytes, times and the newest save ref (refs sort by save within a chat).
  const byChat = new Map<string, { bytes: number; first: string; latest: string; newest?: string }>();
  let after: string | undefined;
  for (;;) {
    const page = await rawRange(store, { namespace, prefix, limit: PAGE, ...(after === undefined ? {} : { after }) });
    for (const row of page) {
      const ref = String(row.sourceRef);
      const at = String(row.createdAt);
      const key = ref.slice(0, ref.indexOf('/', 'chat/'.length) + 1);
      const entry = byChat.get(key) ?? { bytes: 0, first: at, latest: at };
      entry.bytes += utf8Length(row.payloadJson);
      if (at < entry.first) entry.first = at;
      if (at > entry.latest) entry.latest = at;
      if (row.kind === SAVE_KIND && ref.startsWith(`${key}s/`)) entry.newest = ref;
      byChat.set(key, entry);
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]?.sourceRef ?? undefined;
    if (after === undefined) break;
  }
  const out: ChatSummary[] = [];
  for (const entry of byChat.values()) {
    if (entry.newest === undefined) continue;
    const row = await store.findBySourceRef(namespace, entry.newest);
    if (row === undefined) continue; // deleted meanwhile
    const chatId = (row.payload as { chatId?: unknown }).chatId;
    if (typeof chatId !== 'string' || !entry.newest.startsWith(savePrefix(chatId))) continue; // not a row of ours
    const p = savePayloadOf(chatId, row);
    out.push({ family: 'ai-sdk', namespace, thread_id: chatId, checkpoint_ns: [''], count: p.count, saves: p.save, bytes: entry.bytes, first_created_at: entry.first, latest_created_at: entry.latest });
  }
  return out.sort((a, b) => (a.latest_created_at < b.latest_created_at ? 1 : a.latest_created_at > b.latest_created_at ? -1 : 0));
}
