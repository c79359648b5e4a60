import { convertToModelMessages, streamText, type UIMessage } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { createChatStore } from './index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';
import { scriptedModel } from './test-support/scripted-model.js';

/*
 * The route handler the AI SDK's docs describe, with the real `ai` package and a scripted model:
 * load the chat, stream the answer, save in `toUIMessageStreamResponse`'s `onFinish`, reload and
 * continue; then regenerate the last answer as `useChat().regenerate()` asks the server to.
 */

const list = backends().filter((b) => b.name !== 'memory');
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.skipIf(!RUNTIME_OK).each(list)('a chat route over the store on $name', (backend) => {
  it.skipIf(!backend.available)('streams, saves in onFinish, reloads in a new store object, continues and regenerates', async () => {
    const target = backend.target();
    const model = scriptedModel(['Hello! How can I help?', 'Paris is sunny.', 'Paris: 21 °C and sunny.']);
    let ids = 0;
    /** One POST of the chat route: the client's new message (or none, to regenerate) in, the streamed response out. */
    const post = async (chatId: string, message: UIMessage | undefined) => {
      const store = await backend.open(target);
      try {
        const chats = createChatStore(store);
        const stored = await chats.loadChat(chatId);
        const messages = message === undefined ? stored.slice(0, -1) : [...stored, message];
        let saved: unknown;
        const result = streamText({ model, messages: await convertToModelMessages(messages) });
        const response = result.toUIMessageStreamResponse({
          originalMessages: messages,
          generateMessageId: () => `a-${++ids}`,
          onFinish: async ({ messages: all }) => {
            saved = await chats.saveChat({ chatId, messages: all });
          },
        });
        const body = await response.text();
        expect(response.headers.get('content-type')).toContain('text/event-stream');
        expect(body).toContain('"type":"text-delta"');
        // onFinish runs as the stream ends; the save is done before the body's last byte is read.
        await new Promise((resolve) => setTimeout(resolve, 0));
        return { saved, reloaded: await createChatStore(store).loadChat(chatId) };
      } finally {
        await store.close();
      }
    };

    const first = await post('route-1', { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] });
    expect(first.saved).toMatchObject({ save: 1, keep: 0, added: 2, replaced: 0 });
    expect(first.reloaded.map((m) => [m.id, m.role])).toEqual([
      ['u1', 'user'],
      ['a-1', 'assistant'],
    ]);
    expect(first.reloaded[1]?.parts.filter((p) => p.type === 'text')).toEqual([{ type: 'text', text: 'Hello! How can I help?', state: 'done' }]);

    const second = await post('route-1', { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Weather in Paris?' }] });
    expect(second.saved).toMatchObject({ save: 2, keep: 2, added: 2, replaced: 0 });
    // The model saw the whole conversation, as loaded from the store.
    expect(JSON.stringify(model.prompts[1])).toContain('Hello! How can I help?');

    const regenerated = await post('route-1', undefined);
    expect(regenerated.saved).toMatchObject({ save: 3, keep: 3, added: 1, replaced: 1 });
    expect(regenerated.reloaded.map((m) => m.id)).toEqual(['u1', 'a-1', 'u2', 'a-3']);
    expect(regenerated.reloaded[3]?.parts.find((p) => p.type === 'text')).toMatchObject({ text: 'Paris: 21 °C and sunny.' });

    const store = await backend.open(target);
    try {
      const history = await createChatStore(store).chatHistory('route-1');
      expect(history.map((s) => [s.addedIds, s.replacedIds])).toEqual([
        [['u1', 'a-1'], []],
        [['u2', 'a-2'], []],
        [['a-3'], ['a-2']],
      ]);
    } finally {
      await store.close();
    }
  });
});
