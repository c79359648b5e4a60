import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { readFixtureJson } from '@session-checkpoint/fixtures';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { chatState, chatTimeline } from './rows/index.js';
import { tempDir } from './test-support/backends.js';

/*
 * AI SDK chat rows through the Python tool (CPython, the reference's store operations as
 * store-kysely's test-support/python_reference_ops.py models them): it opens the file, verifies
 * every row (canonical JSON, SHA-256), exports a bundle in its layout and imports it into a new
 * store file; that file, opened here, gives the same chats, save by save, and verifies.
 */

const SCRIPT = fileURLToPath(new URL('../../store-kysely/src/test-support/python_reference_ops.py', import.meta.url));
const python = spawnSync('python3', ['-c', 'import sqlite3'], { encoding: 'utf8' });
if (python.status !== 0) console.warn('python3 with sqlite3 is not available: the Python round trip of AI SDK chats is SKIPPED');
const [major = 0] = process.versions.node.split('.').map(Number);
if (major < 22) console.warn(`Node ${process.version}: the Python round trip of AI SDK chats is SKIPPED: ai@7 needs Node 22 or later; CI runs it in its Node 24 pass`);
const { schema_sql } = readFixtureJson<{ schema_sql: string[] }>('py-store.manifest.json');
const tmp = tempDir();
afterAll(() => tmp.remove());

const text = (id: string, role: 'user' | 'assistant', body: string) => ({ id, role, parts: [{ type: 'text' as const, text: body }] });

describe.skipIf(python.status !== 0 || major < 22)('AI SDK chat rows in the Python tool', () => {
  it('are verified, exported and imported by it, and read back the same', async () => {
    const { createChatStore } = await import('./index.js');
    const file = join(tmp.dir, 'chats.sqlite');
    const store = await openSqliteStore(file);
    const chats = createChatStore(store);
    const long = Array.from({ length: 60 }, (_, i) => text(`m${i}`, i % 2 ? 'assistant' : 'user', `message ${i}: café ☕ 😀 ${'x'.repeat(400)}`));
    await chats.saveChat({ chatId: 'imported', messages: long }); // over 16 KiB: part rows
    await chats.saveChat({ chatId: 'chat-é', messages: [text('u1', 'user', 'Weather in Paris?'), text('a1', 'assistant', 'Sunny, 21 °C.')] });
    await chats.saveChat({ chatId: 'chat-é', messages: [text('u1', 'user', 'Weather in Paris?'), text('a2', 'assistant', 'Clouds.')] }); // regenerate
    const before = { imported: await chatState(store, { chatId: 'imported' }), one: await chatState(store, { chatId: 'chat-é', save: 1 }), two: await chatState(store, { chatId: 'chat-é' }), timeline: await chatTimeline(store, { chatId: 'chat-é' }) };
    await store.close();

    const copy = join(tmp.dir, 'python-copy.sqlite');
    const run = spawnSync('python3', [SCRIPT, file, copy, join(tmp.dir, 'bundle.json'), JSON.stringify(schema_sql)], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const summary = JSON.parse(run.stdout) as { exported: number[]; inserted: number[]; listed: Record<string, number[]> };
    expect(summary.inserted).toEqual(summary.exported);
    expect(Object.keys(summary.listed)).toEqual(['ai-sdk-chats']);
    expect(summary.exported.length).toBeGreaterThan(3); // save rows and part rows

    const back = await openSqliteStore(copy, { create: false });
    try {
      expect(await chatState(back, { chatId: 'imported' })).toEqual(before.imported);
      expect(await chatState(back, { chatId: 'chat-é', save: 1 })).toEqual(before.one);
      expect(await chatState(back, { chatId: 'chat-é' })).toEqual(before.two);
      expect(await chatTimeline(back, { chatId: 'chat-é' })).toEqual(before.timeline);
      expect(await createChatStore(back).loadChat('imported')).toEqual(long);
      expect((await back.verify()).failures).toEqual([]);
    } finally {
      await back.close();
    }
  });
});
