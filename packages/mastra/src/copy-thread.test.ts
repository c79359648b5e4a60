import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryStorage } from '@mastra/core/storage';
import { LibSQLStore } from '@mastra/libsql';
import { afterAll, describe, expect, it } from 'vitest';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * `copyThread` onto a thread id that holds messages saved without a thread record (Mastra lets a
 * save name any thread): `@mastra/libsql` makes the thread, and it then lists those messages with
 * the copies. Here the copy wrote change row 1 of a history that already had one, so its insert
 * was refused on every attempt and the copy failed ("source_ref already exists").
 */

const list = backends();
const tmp = mkdtempSync(join(tmpdir(), 'sc-mastra-copy-'));
afterAll(async () => {
  for (const b of list) await b.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

const at = new Date('2026-01-01T00:00:00Z');
const message = (id: string, threadId: string, k: number) => ({ id, threadId, resourceId: 'u', role: 'user' as const, createdAt: new Date(at.getTime() + k), content: { format: 2 as const, parts: [{ type: 'text' as const, text: id }] } });

async function copyOntoMessages(memory: MemoryStorage): Promise<{ texts: string[]; total: number }> {
  await memory.saveMessages({ messages: [message('orphan', 't2', 1)] });
  await memory.saveThread({ thread: { id: 't1', resourceId: 'u', title: 'one', metadata: {}, createdAt: at, updatedAt: at } });
  await memory.saveMessages({ messages: [message('m1', 't1', 2)] });
  await memory.copyThread({ sourceThreadId: 't1', newThreadId: 't2' });
  const listed = await memory.listMessages({ threadId: 't2', perPage: false });
  return { texts: listed.messages.map((m) => (m.content.parts[0] as { text: string }).text), total: listed.total };
}

describe.skipIf(!RUNTIME_OK).each(list)('copyThread on $name', (backend) => {
  it.skipIf(!backend.available)('onto a thread id with messages and no record joins them, as @mastra/libsql does', async () => {
    const { CheckpointMemoryStorage } = await import('./index.js');
    const store = await backend.open(backend.target());
    const libsql = new LibSQLStore({ id: `copy-${backend.name}`, url: `file:${join(tmp, `libsql-${backend.name}.db`)}` });
    try {
      await libsql.init();
      const expected = await copyOntoMessages((await libsql.getStore('memory')) as MemoryStorage);
      expect(expected).toEqual({ texts: ['orphan', 'm1'], total: 2 });
      expect(await copyOntoMessages(new CheckpointMemoryStorage(store))).toEqual(expected);
    } finally {
      await store.close();
      await (libsql as unknown as { client?: { close(): void } }).client?.close();
    }
  }, 120_000);
});
