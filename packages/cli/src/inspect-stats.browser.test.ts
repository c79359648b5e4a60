/**
 * The inspector's "what takes the space" table (issue 37 item 3) in Chromium: the real binary
 * serves a real SQLite store; the table lists every thread and session with the `stats` command's
 * numbers, largest first, and a click on a heading sorts by that column (again: the other way).
 * The store stays byte-identical. Without Chromium the browser part is skipped, except under
 * CI=true, where it fails.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { chromium as playwright, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from './test-support/find-chromium.js';
import { rawRequest, startInspect, type InspectChild } from './test-support/inspect-server.js';
import { removeTempDirs, runCli, tempDir } from './test-support/run-cli.js';

const CHROMIUM = findChromium();
const BROWSER = CHROMIUM !== undefined || process.env.CI === 'true';
const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The table's rows as the page shows them, top to bottom. */
async function shown(page: Page): Promise<{ id: string; rows: number; bytes: number }[]> {
  return page.locator('table.stats tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({
      id: tr.getAttribute('data-session-id') ?? '',
      rows: Number(tr.children[2]?.textContent),
      bytes: Number(tr.children[3]?.getAttribute('data-bytes')),
    })),
  );
}

describe('the inspector shows what takes the space', () => {
  let dir: string;
  let file: string;
  let inspector: InspectChild;
  let before: string;
  let browser: Browser | undefined;

  beforeAll(async () => {
    dir = tempDir('sc-inspect-stats-');
    file = join(dir, 'sizes.sqlite');
    const store = await openSqliteStore(file);
    try {
      // Rows and bytes disagree on the order: many small rows, few big ones.
      const sessions: [string, string, number, number][] = [
        ['default', 'many-small', 9, 10],
        ['default', 'one-big', 1, 5000],
        ['agents', 'middle', 3, 400],
        ['default', 'tiny', 2, 1],
      ];
      for (const [namespace, sessionId, rows, pad] of sessions) {
        for (let i = 0; i < rows; i++) await store.create({ namespace, sessionId, payload: { i, pad: 'x'.repeat(pad) } });
      }
      await store.pin('tiny');
    } finally {
      await store.close();
    }
    before = sha(file);
    inspector = await startInspect(['--store', file, '--no-open'], dir);
  });

  afterAll(async () => {
    await browser?.close();
    if (inspector) expect((await inspector.stop('SIGTERM')).code).toBe(0);
    if (file) expect(sha(file)).toBe(before);
    removeTempDirs();
  });

  it('answers /api/stats with the stats command\'s document', async () => {
    const api = await rawRequest(inspector.port, '/api/stats', { Host: `127.0.0.1:${inspector.port}`, 'X-Session-Checkpoint-Token': inspector.token });
    expect(api.status).toBe(200);
    const cli = await runCli(['stats', '--store', file], { cwd: dir });
    const fromCli = (JSON.parse(cli.stdout) as { result: Record<string, unknown> }).result;
    expect(JSON.parse(api.body)).toEqual(fromCli);
  });

  it.skipIf(!BROWSER)(`sorts the table by a column on a click, and back on a second click${CHROMIUM ? '' : ' (no chromium on PATH)'}`, async () => {
    expect(CHROMIUM, 'CI=true requires Chromium on PATH').toBeDefined();
    browser = await playwright.launch({ executablePath: CHROMIUM!, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(inspector.url);
    await page.locator('#show-stats').click();
    await page.locator('table.stats tbody tr').first().waitFor();

    // Largest first.
    const byBytes = await shown(page);
    expect(byBytes.map((r) => r.id)).toEqual(['one-big', 'middle', 'many-small', 'tiny']);
    expect(byBytes.map((r) => r.bytes)).toEqual([...byBytes.map((r) => r.bytes)].sort((a, b) => b - a));
    await expect.poll(() => page.locator('table.stats').getAttribute('data-sort-key')).toBe('bytes');
    expect(await page.locator('tr[data-session-id="tiny"] td').last().textContent()).toBe('pinned');

    // Rows: most first, then fewest first.
    await page.locator('th[data-column="rows"] button').click();
    await expect.poll(async () => (await shown(page)).map((r) => r.id)).toEqual(['many-small', 'middle', 'tiny', 'one-big']);
    expect(await page.locator('th[data-column="rows"]').getAttribute('aria-sort')).toBe('descending');
    await page.locator('th[data-column="rows"] button').click();
    await expect.poll(async () => (await shown(page)).map((r) => r.id)).toEqual(['one-big', 'tiny', 'middle', 'many-small']);
    expect(await page.locator('th[data-column="rows"]').getAttribute('aria-sort')).toBe('ascending');

    // A text column sorts A to Z first.
    await page.locator('th[data-column="session_id"] button').click();
    await expect.poll(async () => (await shown(page)).map((r) => r.id)).toEqual(['many-small', 'middle', 'one-big', 'tiny']);
    expect(await page.locator('.storage[data-storage="sqlite"]').textContent()).toContain('SQLite file');
    expect(errors).toEqual([]);
  });
});
