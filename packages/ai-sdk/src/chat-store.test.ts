import type { UIMessage } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createChatStore, SAVE_KIND } from './index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * The chat store on every backend, as an application uses it: appends, the same list again, a
 * regenerated answer and an edited message (forks that keep the replaced messages in history),
 * typed tool and data parts kept, a message larger than a row, listing and deleting chats, and
 * refusals that write nothing.
 */

const text = (id: string, role: 'user' | 'assistant', words: string): UIMessage => ({ id, role, parts: [{ type: 'text', text: words }] });
const toolAnswer: UIMessage = {
  id: 'a1',
  role: 'assistant',
  metadata: { model: 'scripted' },
  parts: [
    { type: 'step-start' },
    { type: 'tool-getWeather', toolCallId: 'call-1', state: 'output-available', input: { city: 'Paris' }, output: { celsius: 21 } },
    { type: 'data-weather', data: { city: 'Paris', celsius: 21 } },
    { type: 'text', text: 'Sunny, 21 °C.', state: 'done' },
  ],
} as UIMessage;

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.skipIf(!RUNTIME_OK).each(list)('createChatStore on $name', (backend) => {
  it.skipIf(!backend.available)('appends, ignores the same list, forks on regenerate and edit, keeps history', async () => {
    const store = await backend.open(backend.target());
    try {
      const chats = createChatStore(store);
      const chatId = 'chat-1';
      expect(await chats.loadChat(chatId)).toEqual([]);
      const first = [text('u1', 'user', 'Weather in Paris?'), toolAnswer];
      expect(await chats.saveChat({ chatId, messages: first })).toEqual({ save: 1, written: true, keep: 0, added: 2, replaced: 0 });
      expect(await chats.loadChat(chatId)).toEqual(first);
      expect(await chats.saveChat({ chatId, messages: first })).toMatchObject({ save: 1, written: false, added: 0 });
      // What loadChat gives, saved back with a new message, is an append (key order does not matter).
      const reloaded = await chats.loadChat(chatId);
      const second = [...reloaded, text('u2', 'user', 'And Lyon?'), text('a2', 'assistant', 'Cloudy.')];
      expect(await chats.saveChat({ chatId, messages: second })).toEqual({ save: 2, written: true, keep: 2, added: 2, replaced: 0 });
      // Regenerate: the last answer replaced by a new one.
      const regenerated = [...second.slice(0, 3), text('a2-b', 'assistant', 'Cloudy, 17 °C.')];
      expect(await chats.saveChat({ chatId, messages: regenerated })).toEqual({ save: 3, written: true, keep: 3, added: 1, replaced: 1 });
      // Edit: the second user message changed (same id), answered again.
      const edited = [...first, text('u2', 'user', 'And Nice?'), text('a3', 'assistant', 'Sunny.')];
      expect(await chats.saveChat({ chatId, messages: edited })).toEqual({ save: 4, written: true, keep: 2, added: 2, replaced: 2 });
      expect(await chats.loadChat(chatId)).toEqual(edited);

      expect((await chats.chatHistory(chatId)).map((s) => [s.save, s.keep, s.addedIds, s.replacedIds, s.count])).toEqual([
        [1, 0, ['u1', 'a1'], [], 2],
        [2, 2, ['u2', 'a2'], [], 4],
        [3, 3, ['a2-b'], ['a2'], 4],
        [4, 2, ['u2', 'a3'], ['u2', 'a2-b'], 4],
      ]);
      // Nothing replaced is lost: every save's chat is still there.
      expect(await chats.chatAt(chatId, 2)).toEqual(second);
      expect(await chats.chatAt(chatId, 3)).toEqual(regenerated);
      // A shorter list (a message deleted from the end) is a save too.
      expect(await chats.saveChat({ chatId, messages: edited.slice(0, 3) })).toMatchObject({ save: 5, keep: 3, added: 0, replaced: 1 });
      expect(await chats.loadChat(chatId)).toEqual(edited.slice(0, 3));

      await chats.saveChat({ chatId: 'chat-2', messages: [text('x', 'user', 'hi')] });
      expect((await chats.listChats()).map((c) => [c.chatId, c.messages, c.saves]).sort()).toEqual([
        ['chat-1', 3, 5],
        ['chat-2', 1, 1],
      ]);
      expect(await chats.deleteChat(chatId)).toBe(5);
      expect(await chats.loadChat(chatId)).toEqual([]);
      expect((await chats.listChats()).map((c) => c.chatId)).toEqual(['chat-2']);
      // The rows are ordinary, verified rows.
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('checks messages with the SDK (and the schemas given) before writing anything', async () => {
    const store = await backend.open(backend.target());
    try {
      const chats = createChatStore(store, { dataSchemas: { weather: z.object({ city: z.string(), celsius: z.number() }) }, metadataSchema: z.object({ model: z.string() }).optional() });
      await chats.saveChat({ chatId: 'c', messages: [text('u1', 'user', 'Weather?'), toolAnswer] });
      const bad = { ...toolAnswer, id: 'a9', parts: [{ type: 'data-weather', data: { city: 'Paris', celsius: 'warm' } }] } as UIMessage;
      await expect(chats.saveChat({ chatId: 'c', messages: [text('u1', 'user', 'Weather?'), toolAnswer, bad] })).rejects.toThrow(/celsius|Type validation failed/);
      await expect(chats.saveChat({ chatId: 'c', messages: [{ id: 'z', role: 'robot', parts: [] } as unknown as UIMessage] })).rejects.toThrow();
      await expect(chats.saveChat({ chatId: 'c', messages: [{ id: 'n', role: 'user', parts: [{ type: 'text', text: '\ud800' }] } as UIMessage] })).rejects.toThrow(/message 0/);
      await expect(chats.saveChat({ chatId: '', messages: [] })).rejects.toThrow(/chatId/);
      expect((await chats.chatHistory('c')).length).toBe(1);
      expect(await chats.loadChat('c')).toEqual([text('u1', 'user', 'Weather?'), toolAnswer]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('stores a message larger than a row over part rows bound by SHA-256, and fails closed when one is altered', async () => {
    const store = await backend.open(backend.target());
    try {
      const chats = createChatStore(store);
      const image = `data:image/png;base64,${'iVBORw0KGgo'.repeat(250_000)}`; // 2.75 MB
      const messages: UIMessage[] = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What is this? ✓ 😀' }, { type: 'file', mediaType: 'image/png', url: image }] }, text('a1', 'assistant', 'A picture.')];
      expect(await chats.saveChat({ chatId: 'big', messages })).toMatchObject({ save: 1, added: 2 });
      expect(await chats.loadChat('big')).toEqual(messages);
      const rows = await store.listBySourceRefPrefix({ namespace: 'ai-sdk-chats', prefix: 'chat/big/', limit: 100 });
      expect(rows.filter((r) => r.kind === 'ai-sdk.part').length).toBeGreaterThanOrEqual(3);
      expect(rows.every((r) => r.payloadJson.length <= store.limits.maxPayloadBytes)).toBe(true);
      // Delete one part behind the store's back: the chat fails closed, naming the save row.
      const part = rows.find((r) => r.kind === 'ai-sdk.part');
      await store.adapter.deleteRows([part?.id ?? 0], 'ai-sdk-chats');
      await expect(chats.loadChat('big')).rejects.toThrow(/part 0 missing or altered/);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('fails closed on a missing save row', async () => {
    const store = await backend.open(backend.target());
    try {
      const chats = createChatStore(store);
      await chats.saveChat({ chatId: 'g', messages: [text('1', 'user', 'a')] });
      await chats.saveChat({ chatId: 'g', messages: [text('1', 'user', 'a'), text('2', 'assistant', 'b')] });
      await chats.saveChat({ chatId: 'g', messages: [text('1', 'user', 'a'), text('2', 'assistant', 'b'), text('3', 'user', 'c')] });
      const saves = await store.listBySourceRefPrefix({ namespace: 'ai-sdk-chats', prefix: 'chat/g/s/', limit: 10, kind: SAVE_KIND });
      await store.adapter.deleteRows([saves[1]?.id ?? 0], 'ai-sdk-chats');
      await expect(chats.loadChat('g')).rejects.toThrow(/save 2 was expected/);
    } finally {
      await store.close();
    }
  });
});
