// A chat route of the Vercel AI SDK over @session-checkpoint/ai-sdk: load the chat, stream the
// answer (a scripted model here), save in onFinish. Every save is a verified checkpoint of what it
// added; a regenerated answer is a save that replaces the old one, which stays in the history.
// Run `node examples/ai-sdk-chat-store.mjs` (Node 22+, after `npm run build`); it writes ./chats.sqlite.
import { createChatStore } from '@session-checkpoint/ai-sdk';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { convertToModelMessages, streamText } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';

const answer = (text) => ({ doStream: async () => ({ stream: convertArrayToReadableStream([{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: text }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } } }]) }) });
const chats = createChatStore(await openSqliteStore('./chats.sqlite'));
const chatId = `chat-${Date.now()}`;
async function post(message, model) {
  const stored = await chats.loadChat(chatId);
  const messages = message ? [...stored, message] : stored.slice(0, -1); // no message: regenerate the last answer
  const result = streamText({ model: new MockLanguageModelV4(model), messages: await convertToModelMessages(messages) });
  await result.toUIMessageStreamResponse({ originalMessages: messages, onFinish: ({ messages: all }) => chats.saveChat({ chatId, messages: all }) }).text();
}
await post({ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather in Paris?' }] }, answer('Sunny.'));
await post(undefined, answer('Sunny, 21 °C.'));
console.log((await chats.loadChat(chatId)).map((m) => m.parts.find((p) => p.type === 'text')?.text).join(' | '));
console.log((await chats.chatHistory(chatId)).map((s) => `save ${s.save}: +${s.addedIds.length} -${s.replacedIds.length}`).join(', '));
await chats.store.close();
