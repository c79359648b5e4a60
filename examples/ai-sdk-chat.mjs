// Vercel AI SDK chats (UIMessage[]) in a session-checkpoint store: one verified row per message,
// appended, never rewritten; a regenerated or edited message is a new row after a marker that
// says how many of the earlier messages still count. Run `node examples/ai-sdk-chat.mjs` after
// `npm run build` (as often as you like: each run starts a new chat in ./chats.sqlite) and it
// prints what it did. In an app, saveChat goes in the route's onFinish and loadChat before
// streamText (docs/ai-sdk.md).
import { CheckpointConflictError, canonicalize } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { validateUIMessages } from 'ai';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';

const NAMESPACE = 'ai-sdk-chats';
/** Rows of a chat sort in the order they were written: `chat/<chatId>/<12-digit sequence>`. */
const prefix = (chatId) => `chat/${encodeURIComponent(chatId)}/`;
const refOf = (chatId, seq) => `${prefix(chatId)}${String(seq).padStart(12, '0')}`;

/** The chat's current message rows (each verified on read) and how many rows it has in all. */
async function storedChat(reader, chatId) {
  const rows = [];
  for (let after; ; ) {
    const page = await reader.listBySourceRefPrefix({ namespace: NAMESPACE, prefix: prefix(chatId), limit: 500, ...(after ? { after } : {}) });
    rows.push(...page);
    if (page.length < 500) break;
    after = page[page.length - 1].sourceRef;
  }
  const messages = [];
  // A 'keep' row drops the messages after the first `keep`: a regenerated or edited message follows it.
  for (const row of rows) row.kind === 'ai-sdk.keep' ? (messages.length = row.payload.keep) : messages.push(row);
  return { messages, rows: rows.length };
}

/**
 * Stores `messages` as the chat, in one transaction, and returns how many messages it wrote. The
 * stored messages must be where they were: saving the same list again writes nothing, a longer
 * one appends. A list that differs from the stored chat before its end (another writer, a stale
 * tab) fails with CheckpointConflictError, unless `replace` says this list is the chat now (a
 * regenerated answer, an edited message): the messages after the first difference are then
 * replaced, by new rows; the old ones stay in the store's history.
 */
export async function saveChat(store, chatId, messages, { replace = false } = {}) {
  return store.transaction(async (tx) => {
    const stored = await storedChat(tx, chatId);
    let same = 0;
    while (same < stored.messages.length && same < messages.length && stored.messages[same].payloadJson === canonicalize(messages[same])) same++;
    if (same < stored.messages.length && !replace) throw new CheckpointConflictError(`chat ${chatId} was changed elsewhere (message ${same} differs)`);
    let seq = stored.rows;
    if (same < stored.messages.length) {
      await tx.create({ namespace: NAMESPACE, sessionId: chatId, kind: 'ai-sdk.keep', name: `keep-${same}`, payload: { keep: same }, sourceRef: refOf(chatId, seq++) });
    }
    for (const message of messages.slice(same)) {
      await tx.create({ namespace: NAMESPACE, sessionId: chatId, kind: 'ai-sdk.message', name: message.id, payload: message, sourceRef: refOf(chatId, seq++) });
    }
    return messages.length - same;
  });
}

/** The chat's messages, each row verified on read, then checked by the AI SDK's own validator. */
export async function loadChat(store, chatId) {
  const messages = (await storedChat(store, chatId)).messages.map((row) => row.payload);
  return messages.length === 0 ? [] : validateUIMessages({ messages });
}

const store = await openSqliteStore('./chats.sqlite');
const chatId = `chat-${randomUUID()}`;
const text = (id, role, words) => ({ id, role, parts: [{ type: 'text', text: words }] });
const chat = [
  text('u1', 'user', 'Weather in Paris?'),
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
console.log(`saved ${await saveChat(store, chatId, chat)} messages`);
const next = [...chat, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And this picture?' }, { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=' }] }];
console.log(`appended ${await saveChat(store, chatId, next)}, saved the same list again: ${await saveChat(store, chatId, next)} written`);
await saveChat(store, chatId, [...next, text('a2', 'assistant', 'A cat.')]);

// Regenerate: the client drops the last answer and streams a new one (a new id).
const regenerated = [...next, text('a2-b', 'assistant', 'A grey cat on a sofa.')];
await saveChat(store, chatId, regenerated).catch((error) => console.log(`without replace: ${error.name}`));
console.log(`regenerated: ${await saveChat(store, chatId, regenerated, { replace: true })} written`);

// Edit: the user changes their second message (same id), and everything after it is answered again.
const edited = [...chat, text('u2', 'user', 'And in Lyon?'), text('a3', 'assistant', 'Cloudy, 17 °C.')];
console.log(`edited: ${await saveChat(store, chatId, edited, { replace: true })} written`);

const rows = await store.history(chatId, { namespace: NAMESPACE, limit: 20 });
console.log(`stored rows: ${rows.length}`);
const loaded = await loadChat(store, chatId);
console.log(`loaded ${loaded.length} messages, validated: ${loaded.map((m) => m.id).join(', ')}`);
console.log(`same as saved: ${isDeepStrictEqual(loaded, edited)}`);
await store.close();
