import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointMemoryStorage } from './index.js';
import { mastraThreadState, mastraThreadTimeline, mastraThreads } from './rows/index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * As a user would: a Mastra Agent with Memory (a scripted model) answers in one process, and an
 * agent in a new process recalls the conversation, also after the first process was SIGKILLed
 * right after its answer.
 */

const dir = join(dirname(fileURLToPath(import.meta.url)), 'test-support');

function child(script: string, ...args: string[]): Promise<{ code: number | null; signal: string | null; lines: string[]; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [join(dir, script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    p.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    p.on('close', (code, signal) => resolve({ code, signal, lines: out.trim().split('\n').filter(Boolean), stderr: err }));
  });
}

const list = backends().filter((b) => b.name !== 'memory');
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.skipIf(!RUNTIME_OK).each(list)('a Mastra agent with Memory on $name', (backend) => {
  it.skipIf(!backend.available)('remembers across processes, and after a SIGKILL', async () => {
    const target = backend.target() as string;
    const first = await child('agent-child.mjs', target, 'thread-1', 'My name is Ada.', 'kill');
    expect(first.signal, first.stderr).toBe('SIGKILL');
    expect(JSON.parse(first.lines[0] ?? '{}')).toMatchObject({ text: 'noted: My name is Ada.' });
    const second = await child('agent-child.mjs', target, 'thread-1', 'What is my name?');
    expect(second.code, second.stderr).toBe(0);
    const { seen } = JSON.parse(second.lines[0] ?? '{}') as { seen: string };
    // The model of the new process was given the first exchange from memory.
    expect(seen).toContain('My name is Ada.');
    expect(seen).toContain('noted: My name is Ada.');
    expect(seen).toContain('What is my name?');

    const store = await backend.open(target);
    try {
      const memory = new CheckpointMemoryStorage(store);
      const { messages, total } = await memory.listMessages({ threadId: 'thread-1' });
      expect(total).toBe(4);
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect((await memory.getThreadById({ threadId: 'thread-1' }))?.resourceId).toBe('user-1');
      // The versions: what the agent had in memory after each change of the thread.
      const now = await mastraThreadState(store, { threadId: 'thread-1' });
      expect(now.messages.map((m) => m.id)).toEqual(messages.map((m) => m.id));
      const { entries } = await mastraThreadTimeline(store, { threadId: 'thread-1' });
      expect(entries.every((e) => e.status === 'verified')).toBe(true);
      const counts = [];
      for (const e of [...entries].reverse()) counts.push((await mastraThreadState(store, { threadId: 'thread-1', step: Number(e.checkpoint_id) })).messages.length);
      expect(counts.at(-1)).toBe(4);
      expect(counts).toContain(2); // the first process's exchange, before the second began
      expect(await mastraThreads(store)).toMatchObject([{ family: 'mastra', thread_id: 'thread-1', count: 4 }]);
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
