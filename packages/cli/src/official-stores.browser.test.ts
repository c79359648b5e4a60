/**
 * `session-checkpoint inspect --from` in Chromium: the real binary serves a SqliteSaver file and a
 * PostgresSaver schema written by the real savers (a chat with a fork), and the system Chromium (playwright-core)
 * walks it: the thread is listed, every checkpoint is on the timeline marked unverified (never
 * verified, never failed), the fork is drawn, a step's state is shown. The SQLite file is
 * byte-identical afterwards, with no -wal or -shm left. Without Chromium the test is skipped,
 * except under CI=true, where it fails.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import pg from 'pg';
import { chromium as playwright } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { findChromium } from './test-support/find-chromium.js';
import { startInspect } from './test-support/inspect-server.js';
import { fileHash, removeTempDirs, tempDir } from './test-support/run-cli.js';

const CHROMIUM = findChromium();
const BROWSER = CHROMIUM !== undefined || process.env.CI === 'true';
const PG_URL = process.env.SC_PG_URL;
const SCHEMA = `sc_offbrowser_${process.pid}`;
afterAll(async () => {
  removeTempDirs();
  if (PG_URL) {
    const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
    await pool.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
    await pool.end();
  }
});

interface Backend {
  name: string;
  available: boolean;
  /** The saver, the inspect flags naming its store, and what closes it. */
  open(dir: string): Promise<{ saver: BaseCheckpointSaver; args: string[]; close(): Promise<void> }>;
}

const BACKENDS: Backend[] = [
  {
    name: 'a SqliteSaver file',
    available: true,
    open: async (dir) => {
      const saver = SqliteSaver.fromConnString(join(dir, 'saver.db'));
      return { saver, args: ['--from', `sqlite:${join(dir, 'saver.db')}`], close: async () => void saver.db.close() };
    },
  },
  {
    name: 'a PostgresSaver schema',
    available: PG_URL !== undefined,
    open: async () => {
      const saver = PostgresSaver.fromConnString(PG_URL ?? '', { schema: SCHEMA });
      await saver.setup();
      return { saver, args: ['--from', PG_URL ?? '', '--schema', SCHEMA], close: () => saver.end() };
    },
  },
];

describe.each(BACKENDS)('inspect --from $name in Chromium', (backend) => {
  it.skipIf(!BROWSER || !backend.available)(`every step unverified, the fork drawn, states shown, nothing written${CHROMIUM ? '' : ' (no chromium on PATH)'}`, async () => {
    expect(CHROMIUM, 'CI=true requires Chromium on PATH').toBeDefined();
    const dir = tempDir('sc-official-browser-');
    const path = join(dir, 'saver.db');
    const { saver, args, close } = await backend.open(dir);
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', (s) => ({ messages: [new AIMessage(`answer number ${s.messages.length}`)] }))
      .addEdge(START, 'agent')
      .compile({ checkpointer: saver });
    const thread = { configurable: { thread_id: 'their-chat' } };
    for (let i = 0; i < 3; i++) await graph.invoke({ messages: [new HumanMessage(`question number ${i}`)] }, thread);
    const history = [];
    for await (const s of graph.getStateHistory(thread)) history.push(s);
    const old = history.find((s) => s.values.messages.length === 2 && s.next.length === 0);
    if (!old) throw new Error('no checkpoint after the first turn');
    const forkedFrom = old.config.configurable?.checkpoint_id as string;
    await graph.invoke(null, await graph.updateState(old.config, { messages: [new HumanMessage('a forked question')] }));
    const ids: string[] = [];
    for await (const t of saver.list(thread)) ids.push(t.config.configurable?.checkpoint_id as string);
    await close();
    const before = fileHash(path);

    const inspector = await startInspect([...args, '--no-open'], dir);
    const browser = await playwright.launch({ executablePath: CHROMIUM!, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(inspector.url);
      await page.locator('.thread[data-thread-id="their-chat"]').first().click();
      await page.locator('.timeline[data-loading="false"] .entries [data-checkpoint-id]').first().waitFor();
      const drawn = await page.locator('.entries [data-checkpoint-id]').evaluateAll((items) => items.map((item) => item.getAttribute('data-checkpoint-id')));
      expect(new Set(drawn)).toEqual(new Set(ids));
      // Unverified, honestly: no step claims verification, none is called failed.
      expect(await page.locator('.entries [data-verified="unverified"]').count()).toBe(ids.length);
      expect(await page.locator('.entries .badge.ok').count()).toBe(0);
      expect(await page.locator('.entries .badge.bad').count()).toBe(0);
      await expect.poll(() => page.locator('[data-rows-unverified]').getAttribute('data-rows-unverified')).toBe(String(ids.length));
      expect(await page.locator('.verification').getAttribute('data-rows-failed')).toBe('0');
      // The fork is drawn from the checkpoint it was made from.
      await expect.poll(() => page.locator(`[data-checkpoint-id="${forkedFrom}"] .fork`).count()).toBe(1);
      // A step's state: its source and values, as the state document of our store shows them.
      await page.locator(`.entries [data-checkpoint-id="${forkedFrom}"]`).click();
      await page.locator(`.state-view[data-state-for="${forkedFrom}"]`).waitFor();
      const text = await page.locator('.state-view').textContent();
      expect(text).toContain(args.includes('--schema') ? '"PostgresSaver"' : '"SqliteSaver"');
      expect(text).toContain('messages');
      expect(text).toContain(forkedFrom);
      expect(await page.locator('.selected-id .badge.unverified').count()).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      expect((await inspector.stop()).code).toBe(0);
    }
    // The SQLite file (when there is one) is byte-identical, with nothing left beside it.
    expect(fileHash(path)).toBe(before);
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(existsSync(`${path}-shm`)).toBe(false);
  });
});
