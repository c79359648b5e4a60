import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createChatStore } from './index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * Two processes saving the same chat at once, each from the chat it loaded plus messages of its
 * own: every save is applied whole (the later one wins, keeping the common start), and no message
 * is lost silently: each message either is in the chat or is named as replaced in its history.
 */

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'test-support', 'save-child.mjs');

function runChild(...args: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('close', (code) => (code === 0 ? resolve(out.trim().split('\n')) : reject(new Error(`save-child exited ${String(code)}: ${err}`))));
  });
}

const list = backends().filter((b) => b.name !== 'memory');
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.skipIf(!RUNTIME_OK).each(list)('two writers on $name', (backend) => {
  it.skipIf(!backend.available)('every save lands whole; every message is in the chat or in the history as replaced', async () => {
    const target = backend.target() as string;
    const turns = 12;
    const [a, b] = await Promise.all([runChild(target, 'shared', 'A', String(turns)), runChild(target, 'shared', 'B', String(turns))]);
    const results = [...a, ...b].map((line) => JSON.parse(line) as { writer: string; save: number; written: boolean; replaced: number });
    expect(results.length).toBe(2 * turns);
    expect(results.every((r) => r.written)).toBe(true);
    // Each save got its own number: the two writers were serialised, never interleaved.
    expect(new Set(results.map((r) => r.save)).size).toBe(2 * turns);

    const store = await backend.open(target);
    try {
      const chats = createChatStore(store);
      const chat = await chats.loadChat('shared');
      const history = await chats.chatHistory('shared');
      expect(history.map((s) => s.save)).toEqual(Array.from({ length: 2 * turns }, (_, i) => i + 1));
      const inChat = new Set(chat.map((m) => m.id));
      const replaced = new Set(history.flatMap((s) => s.replacedIds));
      for (const writer of ['A', 'B']) {
        for (let t = 0; t < turns; t++) {
          for (const id of [`${writer}-u${t}`, `${writer}-a${t}`]) expect(inChat.has(id) || replaced.has(id), id).toBe(true);
        }
      }
      // The result each writer got agrees with the history.
      for (const r of results) expect(history[r.save - 1]?.replacedIds.length).toBe(r.replaced);
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
