// Vercel AI SDK chats (UIMessage[]) in a session-checkpoint store: one verified row per message,
// appended, never rewritten. Run `node examples/ai-sdk-chat.mjs` after `npm run build`; it writes
// ./chats.sqlite and prints what it did. In an app, saveChat goes in the route's onFinish and
// loadChat before streamText (docs/ai-sdk.md).
import { CheckpointConflictError } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { validateUIMessages } from 'ai';
import { isDeepStrictEqual } from 'node:util';

const NAMESPACE = 'ai-sdk-chats';
/** Messages of a chat sort by position: `chat/<chatId>/<12-digit index>`. */
const prefix = (chatId) => `chat/${encodeURIComponent(chatId)}/`;
const refOf = (chatId, index) => `${prefix(chatId)}${String(index).padStart(12, '0')}`;

/** Appends the messages this chat has not stored yet, in one transaction; the stored ones must be the same messages. */
export async function saveChat(store, chatId, messages) {
  await store.transaction(async (tx) => {
    const [last] = await tx.listBySourceRefPrefix({ namespace: NAMESPACE, prefix: prefix(chatId), descending: true, limit: 1 });
    const stored = last ? Number(last.sourceRef.slice(prefix(chatId).length)) + 1 : 0;
    if (last && last.name !== messages[stored - 1]?.id) throw new CheckpointConflictError(`chat ${chatId} was changed elsewhere`);
    for (let index = stored; index < messages.length; index++) {
      const message = messages[index];
      await tx.create({ namespace: NAMESPACE, sessionId: chatId, kind: 'ai-sdk.message', name: message.id, payload: message, sourceRef: refOf(chatId, index) });
    }
  });
}

/** The chat's messages, each row verified on read, then checked by the AI SDK's own validator. */
export async function loadChat(store, chatId) {
  const messages = [];
  for (let after; ; ) {
    const page = await store.listBySourceRefPrefix({ namespace: NAMESPACE, prefix: prefix(chatId), limit: 500, ...(after ? { after } : {}) });
    messages.push(...page.map((row) => row.payload));
    if (page.length < 500) break;
    after = page[page.length - 1].sourceRef;
  }
  return messages.length === 0 ? [] : validateUIMessages({ messages });
}

const store = await openSqliteStore('./chats.sqlite');
const chat = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather in Paris?' }] },
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: 'tool-getWeather', toolCallId: 'call-1', state: 'output-available', input: { city: 'Paris' }, output: { celsius: 21 } },
      { type: 'text', text: 'Sunny, 21 °C.', state: 'done' },
    ],
  },
];
await saveChat(store, 'chat-1', chat);
console.log(`saved ${chat.length} messages`);
const next = [...chat, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And this picture?' }, { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=' }] }];
await saveChat(store, 'chat-1', next); // appends u2 only
const rows = await store.history('chat-1', { namespace: NAMESPACE, limit: 10 });
console.log(`stored rows: ${rows.length}`);
const loaded = await loadChat(store, 'chat-1');
console.log(`loaded ${loaded.length} messages, validated: ${loaded.map((m) => m.id).join(', ')}`);
console.log(`same as saved: ${isDeepStrictEqual(loaded, next)}`);
await store.close();
