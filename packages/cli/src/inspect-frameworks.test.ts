/**
 * `threads`, `state`, `diff` and the `inspect` viewer's API through the real binary, over stores
 * written by the real framework packages: an AI SDK chat (`createChatStore`, with a regenerated
 * answer and an edited question: forks), a Mastra thread (`CheckpointMemoryStorage`: saves, an
 * update, a delete, a title change) and a Mastra workflow run (`CheckpointWorkflowsStorage`: three
 * snapshots), on a SQLite file and a PostgreSQL schema. `state` at every step equals what the
 * package read back right after that step; every diff patch applied to A gives B; a tampered row
 * is a clear error object and the store stays byte-identical.
 *
 * The packages need Node 22 (`ai@7`) and 22.13 (`@mastra/core@1`): on an older Node (CI's first
 * pass) these tests are skipped, visibly; CI's Node 24 pass runs them. The binary itself loads
 * neither `ai` nor `@mastra/*` (the `rows` subpaths are bundled into it).
 */
import type { CheckpointStore } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import fastJsonPatch from 'fast-json-patch';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium as playwright } from 'playwright-core';
import { findChromium } from './test-support/find-chromium.js';
import { startInspect } from './test-support/inspect-server.js';
import { fileHash, removeTempDirs, startCliSession, tempDir, type CliSession } from './test-support/run-cli.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const RUNTIME_OK = major > 22 || (major === 22 && minor >= 13);
if (!RUNTIME_OK) console.warn(`Node ${process.version}: the CLI tests over AI SDK and Mastra stores are SKIPPED: ai@7 and @mastra/core@1 need Node 22.13 or later; CI runs them in its Node 24 pass`);
const PG_URL = process.env.SC_PG_URL;
if (!PG_URL) console.warn('SC_PG_URL is not set: the PostgreSQL framework inspection tests are SKIPPED');

const CHROMIUM = findChromium();
const BROWSER = CHROMIUM !== undefined || process.env.CI === 'true';

const text = (id: string, role: 'user' | 'assistant', body: string) => ({ id, role, parts: [{ type: 'text' as const, text: body }] });

interface Expected {
  /** The chat after each save (index 0 is save 1), as loadChat returned it. */
  chat: unknown[][];
  /** The thread's memory after each change, as the package's reader (listMessages) gives it. */
  thread: { messages: unknown[]; title: string | undefined }[];
  /** The run's snapshot after each persist, as loadWorkflowSnapshot returned it. */
  run: unknown[];
}

/** Writes a chat, a Mastra thread and a workflow run with the real packages; returns what they read back after each step. */
async function populate(store: CheckpointStore): Promise<Expected> {
  const { createChatStore } = await import('@session-checkpoint/ai-sdk');
  const { CheckpointMemoryStorage, CheckpointWorkflowsStorage } = await import('@session-checkpoint/mastra');
  const chats = createChatStore(store);
  const u1 = text('u1', 'user', 'Weather in Paris?');
  const a1 = text('a1', 'assistant', 'Sunny, 21 °C.');
  const u2 = text('u2', 'user', 'And tomorrow?');
  const saves = [
    [u1, a1],
    [u1, a1, u2, text('a2', 'assistant', 'Rain.')],
    [u1, a1, u2, text('a2b', 'assistant', 'Showers, 15 °C.')], // regenerate: a fork from save 1
    [u1, a1, text('u2e', 'user', 'And on Sunday?'), text('a3', 'assistant', 'Clear.')], // edit of u2: a fork from save 1
    [u1, a1, text('u2e', 'user', 'And on Sunday?'), text('a3', 'assistant', 'Clear.'), text('u4', 'user', 'Thanks')], // append
  ];
  const chat: unknown[][] = [];
  for (const messages of saves) {
    await chats.saveChat({ chatId: 'chat-1', messages });
    chat.push(JSON.parse(JSON.stringify(await chats.loadChat('chat-1'))) as unknown[]);
  }

  const memory = new CheckpointMemoryStorage(store);
  const thread: Expected['thread'] = [];
  let clock = Date.parse('2026-12-06T10:00:00.000Z');
  const message = (id: string, role: 'user' | 'assistant', body: string) => ({ id, threadId: 'thread-1', resourceId: 'user-1', role, type: 'v2', createdAt: new Date((clock += 1000)), content: { format: 2 as const, parts: [{ type: 'text' as const, text: body }] } });
  const remember = async () => {
    const t = await memory.getThreadById({ threadId: 'thread-1' });
    const { messages } = await memory.listMessages({ threadId: 'thread-1', perPage: false });
    thread.push({ messages: JSON.parse(JSON.stringify(messages)) as unknown[], title: t?.title });
  };
  await memory.saveThread({ thread: { id: 'thread-1', resourceId: 'user-1', title: 'first', createdAt: new Date(clock), updatedAt: new Date(clock), metadata: {} } });
  await remember();
  await memory.saveMessages({ messages: [message('m1', 'user', 'My name is Ada.'), message('m2', 'assistant', 'Hello Ada.')] as never });
  await remember();
  await memory.saveMessages({ messages: [message('m3', 'user', 'I live in Paris.'), message('m4', 'assistant', 'Noted.')] as never });
  await remember();
  await memory.updateMessages({ messages: [{ id: 'm4', content: { metadata: { edited: true } } as never }] });
  await remember();
  await memory.deleteMessages(['m3']);
  await remember();
  await memory.updateThread({ id: 'thread-1', title: 'Ada in Paris', metadata: {} });
  await remember();

  const workflows = new CheckpointWorkflowsStorage(store);
  const run: unknown[] = [];
  for (const [i, status] of ['running', 'suspended', 'success'].entries()) {
    const snapshot = { runId: 'run-1', status, value: {}, context: { step1: { status: i === 0 ? 'running' : 'success', output: { n: i } } }, activePaths: [], serializedStepGraph: [], suspendedPaths: status === 'suspended' ? { step2: [1] } : {}, waitingPaths: {}, resumeLabels: {}, timestamp: 1_000 + i };
    await workflows.persistWorkflowSnapshot({ workflowName: 'payout', runId: 'run-1', resourceId: 'user-1', snapshot: snapshot as never });
    run.push(JSON.parse(JSON.stringify(await workflows.loadWorkflowSnapshot({ workflowName: 'payout', runId: 'run-1' }))));
  }
  return { chat, thread, run };
}

interface Target {
  name: string;
  available: boolean;
  open: () => Promise<CheckpointStore>;
  flags: () => string[];
  tamper?: (id: number, from: string, to: string) => void;
  bytes?: () => string | null;
  cleanup: () => Promise<void>;
}

const dir = tempDir('sc-inspect-fw-');
const schema = `sc_cli_inspect_fw_${process.pid}`;
const targets: Target[] = [
  {
    name: 'sqlite',
    available: RUNTIME_OK,
    open: () => openSqliteStore(join(dir, 'app.sqlite')),
    flags: () => ['--store', join(dir, 'app.sqlite')],
    tamper: (id, from, to) => {
      const db = new Database(join(dir, 'app.sqlite'));
      try {
        db.prepare('UPDATE checkpoints SET payload_json = replace(payload_json, ?, ?) WHERE id = ?').run(from, to, id);
      } finally {
        db.close();
      }
    },
    bytes: () => fileHash(join(dir, 'app.sqlite')),
    cleanup: async () => undefined,
  },
  {
    name: 'postgres',
    available: RUNTIME_OK && PG_URL !== undefined,
    open: () => openPostgresStore(PG_URL ?? '', { schema, poolSize: 2 }),
    flags: () => ['--database-url', PG_URL ?? '', '--schema', schema],
    cleanup: async () => {
      const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
      try {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await pool.end();
      }
    },
  },
];

let cli: CliSession;
beforeAll(() => {
  cli = startCliSession();
});
afterAll(async () => {
  await cli.close();
  for (const t of targets) if (t.available) await t.cleanup();
  removeTempDirs();
});

describe.each(targets)('AI SDK chats and Mastra threads and runs in threads, state, diff and inspect on $name', (target) => {
  let expected: Expected;
  const run = async (args: string[]) => {
    const r = await cli.call([...args, ...target.flags()], { cwd: dir });
    return { code: r.code, doc: JSON.parse(r.stdout) as { ok: boolean; result?: any; error?: any; type?: string } };
  };
  const ok = async (args: string[]) => {
    const { code, doc } = await run(args);
    expect(doc.ok, JSON.stringify(doc)).toBe(true);
    expect(code).toBe(0);
    return doc.result;
  };

  beforeAll(async () => {
    if (!target.available) return;
    const store = await target.open();
    try {
      expected = await populate(store);
    } finally {
      await store.close();
    }
  }, 600_000);

  it.skipIf(!target.available)('threads lists the chat, the Mastra thread and the run, and nothing of theirs as plain checkpoints', async () => {
    const threads = (await ok(['threads'])) as { family: string; thread_id: string; count: number; checkpoint_ns: string[]; bytes: number }[];
    expect(threads.map((t) => `${t.family}:${t.thread_id}`).sort()).toEqual(['ai-sdk:chat-1', 'mastra-workflow:run-1', 'mastra:thread-1']);
    const by = Object.fromEntries(threads.map((t) => [t.family, t]));
    expect(by['ai-sdk']).toMatchObject({ count: 5, saves: 5, checkpoint_ns: [''] });
    expect(by.mastra).toMatchObject({ count: 3, changes: 6, title: 'Ada in Paris', resource_id: 'user-1' });
    expect(by['mastra-workflow']).toMatchObject({ workflow_name: 'payout', run_id: 'run-1', status: 'success', count: 3, checkpoint_ns: ['payout'] });
    for (const t of threads) expect(t.bytes).toBeGreaterThan(0);
    // The Mastra namespace holds a resource row too (session user-1): not a plain session.
    const inMastra = (await ok(['threads', '--namespace', 'mastra'])) as { family: string }[];
    expect(inMastra.map((t) => t.family).sort()).toEqual(['mastra', 'mastra-workflow']);
  });

  it.skipIf(!target.available)("a chat's regenerate and edit are forks of the save they branch from", async () => {
    const timeline = await ok(['state', '--thread', 'chat-1', '--family', 'ai-sdk']);
    expect(timeline).toMatchObject({ family: 'ai-sdk', chat_id: 'chat-1', save: 5 });
    const inspector = await startInspect([...target.flags(), '--no-open'], dir);
    try {
      const api = async (path: string) => {
        const response = await fetch(`http://127.0.0.1:${inspector.port}${path}`, { headers: { 'x-session-checkpoint-token': inspector.token } });
        expect(response.status, path).toBe(200);
        return (await response.json()) as any;
      };
      const page = await api('/api/timeline?family=ai-sdk&namespace=ai-sdk-chats&thread=chat-1');
      const parents = Object.fromEntries(page.entries.map((e: { checkpoint_id: string; parent_checkpoint_id: string | null }) => [e.checkpoint_id, e.parent_checkpoint_id]));
      expect(parents).toEqual({ '1': null, '2': '1', '3': '1', '4': '1', '5': '4' });
      expect(page.entries.map((e: { replaced: number }) => e.replaced)).toEqual([0, 2, 1, 0, 0]);
      const threads = await api('/api/threads');
      expect(threads.threads.map((t: { family: string }) => t.family).sort()).toEqual(['ai-sdk', 'mastra', 'mastra-workflow']);
      const memory = await api('/api/timeline?family=mastra&namespace=mastra&thread=thread-1');
      expect(memory.entries.map((e: { op: string }) => e.op)).toEqual(['thread', 'delete', 'update', 'save', 'save', 'thread']);
      const snapshot = await api('/api/state?family=mastra-workflow&namespace=mastra&thread=run-1&checkpoint_ns=payout&checkpoint=2');
      expect(snapshot.snapshot).toEqual(expected.run[1]);
      const change = await api('/api/diff?family=mastra&namespace=mastra&thread=thread-1&from=2&to=3');
      expect(change.patch.length).toBeGreaterThan(0);
    } finally {
      await inspector.stop();
    }
  });

  it.skipIf(!target.available)('state at every step equals what the package read back then', async () => {
    for (const [i, chat] of expected.chat.entries()) {
      const state = await ok(['state', '--thread', 'chat-1', '--checkpoint', String(i + 1)]);
      expect(state.messages).toEqual(chat);
    }
    for (const [i, memory] of expected.thread.entries()) {
      const state = await ok(['state', '--thread', 'thread-1', '--checkpoint', String(i + 1)]);
      expect(state).toMatchObject({ family: 'mastra', step: i + 1 });
      expect(state.thread.title).toBe(memory.title);
      // Messages compared as Mastra returns them: ids, roles, contents and times.
      expect(state.messages.map((m: any) => ({ id: m.id, role: m.role, content: m.content, createdAt: m.createdAt }))).toEqual(memory.messages.map((m: any) => ({ id: m.id, role: m.role, content: m.content, createdAt: m.createdAt })));
    }
    for (const [i, snapshot] of expected.run.entries()) {
      const state = await ok(['state', '--thread', 'run-1', '--checkpoint', String(i + 1)]);
      expect(state).toMatchObject({ family: 'mastra-workflow', workflow_name: 'payout', seq: i + 1 });
      expect(state.snapshot).toEqual(snapshot);
    }
    expect((await ok(['state', '--thread', 'run-1', '--checkpoint-ns', 'payout', '--path', '/status'])).value).toBe('success');
    expect((await ok(['state', '--thread', 'thread-1', '--path', '/messages/0/id'])).value).toBe('m1');
  });

  it.skipIf(!target.available)('every diff applied to A gives B; --first-change finds the step', async () => {
    const pairs: [string, unknown[]][] = [
      ['chat-1', expected.chat],
      ['thread-1', expected.thread],
      ['run-1', expected.run],
    ];
    for (const [thread, steps] of pairs) {
      for (let a = 1; a <= steps.length; a++) {
        for (const b of [1, steps.length, Math.min(a + 1, steps.length)]) {
          const { patch } = await ok(['diff', '--thread', thread, '--from', String(a), '--to', String(b)]);
          const docA = (await ok(['state', '--thread', thread, '--checkpoint', String(a), '--path', ''])).value;
          const docB = (await ok(['state', '--thread', thread, '--checkpoint', String(b), '--path', ''])).value;
          expect(fastJsonPatch.applyPatch(structuredClone(docA), patch).newDocument).toEqual(docB);
        }
      }
    }
    // The chat's third message became "And on Sunday?" at save 4 (the edit), on save 5's line
    // (saves 1, 4, 5: `walked` is that whole line, also when the change is found early).
    expect(await ok(['diff', '--thread', 'chat-1', '--first-change', '/2/parts/0/text'])).toMatchObject({ family: 'ai-sdk', checkpoint_id: '4', parent_checkpoint_id: '1', after: 'And on Sunday?', walked: 3 });
    expect(await ok(['diff', '--thread', 'thread-1', '--first-change', '/thread/title'])).toMatchObject({ family: 'mastra', checkpoint_id: '1', after: 'first', walked: expected.thread.length });
    expect(await ok(['diff', '--thread', 'run-1', '--first-change', '/status'])).toMatchObject({ family: 'mastra-workflow', checkpoint_id: '1', after: 'running', walked: expected.run.length });
  });

  it.skipIf(!target.available)('bad steps are clear errors', async () => {
    for (const [thread, step] of [['chat-1', '9'], ['thread-1', '99'], ['run-1', '4'], ['chat-1', 'x']] as const) {
      const { code, doc } = await run(['state', '--thread', thread, '--checkpoint', step]);
      expect(doc.ok).toBe(false);
      expect(code).not.toBe(0);
      expect(['CheckpointNotFoundError', 'CheckpointValidationError']).toContain(doc.type);
    }
  });

  it.skipIf(!target.available || !BROWSER || target.name !== 'sqlite')(`draws a chat's forks and a Mastra thread's changes in Chromium${CHROMIUM ? '' : ' (no chromium on PATH)'}`, async () => {
    expect(CHROMIUM, 'CI=true requires Chromium on PATH').toBeDefined();
    const inspector = await startInspect([...target.flags(), '--no-open'], dir);
    const browser = await playwright.launch({ executablePath: CHROMIUM!, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(inspector.url);
      await page.locator('.thread').first().waitFor();
      const listed = await page.locator('.thread').evaluateAll((items) => items.map((item) => `${item.getAttribute('data-family')}:${item.getAttribute('data-thread-id')}`));
      expect(listed.sort()).toEqual(['ai-sdk:chat-1', 'mastra-workflow:run-1', 'mastra:thread-1']);
      // The chat: saves 2, 3 and 4 all branch from save 1.
      await page.locator('.thread[data-thread-id="chat-1"]').click();
      await page.locator('.timeline[data-loading="false"] .entries [data-checkpoint-id]').first().waitFor();
      expect(await page.locator('.entries [data-checkpoint-id]').evaluateAll((items) => items.map((item) => item.getAttribute('data-checkpoint-id')))).toEqual(['5', '4', '3', '2', '1']);
      await expect.poll(() => page.locator('[data-checkpoint-id="1"] .fork').count()).toBe(1);
      await expect.poll(() => page.locator('.entry.branch').count()).toBeGreaterThan(0);
      await expect.poll(() => page.locator('[data-checkpoint-id="3"]').textContent()).toContain('(fork)');
      // The Mastra thread: each change labelled with what it did.
      await page.locator('.thread[data-thread-id="thread-1"]').click();
      await page.locator('.thread-title code', { hasText: 'thread-1' }).waitFor();
      await expect.poll(() => page.locator('[data-checkpoint-id="5"]').textContent()).toContain('delete, 3 messages');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      await inspector.stop();
    }
  });

  it.skipIf(!target.available || target.tamper === undefined)('a tampered row is an error object and a failed entry; the store stays byte-identical', async () => {
    const store = await target.open();
    let id: number;
    try {
      id = Number((await store.findBySourceRef('mastra', 'c/thread-1/0000000000000002'))?.id);
    } finally {
      await store.close();
    }
    target.tamper?.(id, 'My name is Ada.', 'My name is Eve.');
    const before = target.bytes?.();
    const { doc } = await run(['state', '--thread', 'thread-1']);
    expect(doc).toMatchObject({ ok: false, type: 'CheckpointIntegrityError' });
    expect(doc.error).toMatch(new RegExp(`Checkpoint ${id} failed`));
    expect((await run(['diff', '--thread', 'thread-1', '--from', '3', '--to', '4'])).doc).toMatchObject({ ok: false, type: 'CheckpointIntegrityError' });
    const inspector = await startInspect([...target.flags(), '--no-open'], dir);
    try {
      const response = await fetch(`http://127.0.0.1:${inspector.port}/api/timeline?family=mastra&namespace=mastra&thread=thread-1`, { headers: { 'x-session-checkpoint-token': inspector.token } });
      const page = (await response.json()) as { entries: { checkpoint_id: string; status: string }[] };
      expect(page.entries.find((e) => e.checkpoint_id === '2')).toMatchObject({ status: 'failed' });
      expect(page.entries.filter((e) => e.status === 'failed')).toHaveLength(1);
    } finally {
      await inspector.stop();
    }
    expect(target.bytes?.()).toBe(before);
  });
});
