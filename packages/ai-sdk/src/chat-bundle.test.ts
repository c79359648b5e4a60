import { exportBundle, importBundle, serializeBundle } from '@session-checkpoint/bundle';
import { afterAll, describe, expect, it } from 'vitest';
import { createChatStore } from './index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * Chat rows are ordinary rows: an export bundle of the namespace (the format the Python tool
 * reads and writes), imported into another store, gives the same chat, history and parts, and the
 * chat carries on there.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.skipIf(!RUNTIME_OK)('a chat moved with an export bundle', () => {
  it('loads the same chat and history in the other store, and saves on', async () => {
    const [memory, sqlite] = list;
    if (!memory || !sqlite) throw new Error('backends missing');
    const source = await sqlite.open(sqlite.target());
    const target = await memory.open(undefined);
    try {
      const chats = createChatStore(source);
      const big = `data:text/plain;base64,${'QUJD'.repeat(400_000)}`;
      const first = [{ id: 'u1', role: 'user' as const, parts: [{ type: 'file' as const, mediaType: 'text/plain', url: big }] }];
      await chats.saveChat({ chatId: 'moving', messages: first });
      await chats.saveChat({ chatId: 'moving', messages: [...first, { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'A large file.' }] }] });
      await chats.saveChat({ chatId: 'moving', messages: [...first, { id: 'a2', role: 'assistant', parts: [{ type: 'text', text: 'Still large.' }] }] });
      const text = serializeBundle(await exportBundle(source, { namespace: 'ai-sdk-chats' }));
      await importBundle(target, text, { apply: true });
      const moved = createChatStore(target);
      expect(await moved.loadChat('moving')).toEqual(await chats.loadChat('moving'));
      expect(await moved.chatHistory('moving')).toEqual(await chats.chatHistory('moving'));
      expect(await moved.saveChat({ chatId: 'moving', messages: [...(await moved.loadChat('moving')), { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'ok' }] }] })).toMatchObject({ save: 4, keep: 2, added: 1 });
      expect((await target.verify()).failures).toEqual([]);
    } finally {
      await source.close();
      await target.close();
    }
  });
});
