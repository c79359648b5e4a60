import { CheckpointStore, MemoryAdapter } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointMemoryStorage } from './index.js';
import { PG_URL, pgSchema, RUNTIME_OK, tempDir } from './test-support/backends.js';

/*
 * A save writes all its new rows with one insertPreparedMany (decision record 0039): here the rows
 * of a save whose message is larger than a row (message part rows) and whose change row is over
 * 16 KiB (change part rows), then a save of that message again with other text (its old rows and
 * parts deleted, the new ones written after the deletes). Each store must read back exactly what
 * was saved, verify clean, and hold the part rows of the current versions only.
 */

const LIMITS = { maxPayloadBytes: 8192 };
const tmp = tempDir();
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
  tmp.remove();
});

const targets = [
  { name: 'memory', available: true, open: async () => new CheckpointStore(new MemoryAdapter(), { limits: LIMITS }) },
  { name: 'sqlite', available: true, open: () => openSqliteStore(`${tmp.dir}/save-rows.db`, { limits: LIMITS }) },
  {
    name: 'postgres',
    available: PG_URL !== undefined,
    open: () => {
      const { schema, drop } = pgSchema();
      drops.push(drop);
      return openPostgresStore(PG_URL ?? '', { schema, poolSize: 2, limits: LIMITS });
    },
  },
];

describe.skipIf(!RUNTIME_OK).each(targets)('a Mastra save on $name', (target) => {
  it.skipIf(!target.available)('writes messages, id rows, parts and the change row together, and reads back what it saved', async () => {
    const store = await target.open();
    try {
      const memory = new CheckpointMemoryStorage(store);
      const at = Date.UTC(2026, 0, 1);
      await memory.saveThread({ thread: { id: 't', resourceId: 'u', title: 'rows', createdAt: new Date(at), updatedAt: new Date(at) } });
      const message = (i: number, text: string) => ({ id: `m${i}`, threadId: 't', resourceId: 'u', role: i % 2 ? ('assistant' as const) : ('user' as const), type: 'v2', createdAt: new Date(at + i * 1000), content: { format: 2 as const, parts: [{ type: 'text' as const, text }] } });
      const texts = Array.from({ length: 30 }, (_, i) => `message ${i} `.padEnd(700, 'lorem ipsum '));
      texts[7] = 'big '.repeat(5000);
      await memory.saveMessages({ messages: texts.map((text, i) => message(i, text)) });
      const read = async () => (await memory.listMessages({ threadId: 't', perPage: false })).messages.map((m) => (m.content.parts[0] as { text: string }).text);
      expect(await read()).toEqual(texts);
      const parts = async (prefix: string) => (await store.listBySourceRefPrefix({ namespace: 'mastra', prefix, limit: 1000 })).length;
      const messageParts = await parts('p/m/');
      expect(messageParts).toBeGreaterThan(1);
      expect(await parts('p/c/')).toBeGreaterThan(0);

      // Saved again with other text: the old version's rows and parts go, the new ones come.
      texts[7] = 'other '.repeat(3000);
      await memory.saveMessages({ messages: [message(7, texts[7])] });
      expect(await read()).toEqual(texts);
      expect(await parts('p/m/')).toBeLessThan(messageParts);
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
