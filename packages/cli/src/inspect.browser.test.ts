/**
 * `session-checkpoint inspect` end to end: the real binary serves a real store (a LangGraph chat
 * with a fork written by a StateGraph on our saver, an OpenAI Agents session, plain checkpoints,
 * one tampered row) and the system Chromium, driven by playwright-core, walks it: pick a step,
 * read the state, open a diff, filter by a changed path, export a redacted bundle, see the
 * tampered row failed. Plus the server's token, Host and method checks, and a store left
 * byte-identical. With SC_INSPECT_SCREENSHOTS=1 it also writes docs/images/inspect-*.png (the
 * screenshots of docs/inspect.md); a normal run writes nothing in the checkout.
 * Without Chromium the browser part is skipped, except under CI=true, where it fails.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import pg from 'pg';
import { chromium as playwright, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from './test-support/find-chromium.js';
import { writeInspectFixture, type InspectFixture } from './test-support/inspect-fixture.js';
import { rawHttp, rawRequest, startInspect, type InspectChild } from './test-support/inspect-server.js';
import { removeTempDirs, runCli, tempDir } from './test-support/run-cli.js';

const CHROMIUM = findChromium();
const BROWSER = CHROMIUM !== undefined || process.env.CI === 'true';
const PG_URL = process.env.SC_PG_URL;
const SCREENSHOTS = process.env.SC_INSPECT_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/images/', import.meta.url)) : undefined;

const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

async function launch(): Promise<Browser> {
  expect(CHROMIUM, 'CI=true requires Chromium on PATH (apt-get install chromium); .ci/run installs it').toBeDefined();
  return playwright.launch({ executablePath: CHROMIUM!, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}

/** A screenshot for docs/inspect.md (only with SC_INSPECT_SCREENSHOTS=1): the page, or one panel of it to keep the file small. */
async function shot(page: Page, name: string, panel?: string): Promise<void> {
  if (SCREENSHOTS === undefined) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `inspect-${name}.png`);
  if (panel === undefined) await page.screenshot({ path });
  else await page.locator(panel).screenshot({ path });
}

/** Picks a thread in the list and waits for its timeline. */
async function openThread(page: Page, id: string): Promise<void> {
  await page.locator(`.thread[data-thread-id="${id}"]`).first().click();
  await page.locator('.thread-title code', { hasText: id }).waitFor();
  await page.locator('.timeline[data-loading="false"] .entries [data-checkpoint-id]').first().waitFor();
}

describe('session-checkpoint inspect on SQLite', () => {
  let dir: string;
  let file: string;
  let fixture: InspectFixture;
  let inspector: InspectChild;
  let before: string;
  let browser: Browser | undefined;

  beforeAll(async () => {
    dir = tempDir('sc-inspect-');
    file = join(dir, 'app.sqlite');
    const store = await openSqliteStore(file);
    try {
      fixture = await writeInspectFixture(store);
    } finally {
      await store.close();
    }
    // Tamper with the second plain checkpoint: its payload no longer matches its hash.
    const db = new Database(file);
    db.prepare("update checkpoints set payload_json = replace(payload_json, 'step 2', 'step 2, edited') where id = ?").run(fixture.plainRows[1]);
    db.close();
    before = sha(file);
    // A WAL store whose last writer closed: no -wal or -shm beside it (the viewer must leave none).
    // (The header's read and write versions are 2 in WAL mode; opening it to ask would create the files.)
    expect([...readFileSync(file).subarray(18, 20)]).toEqual([2, 2]);
    expect([existsSync(`${file}-wal`), existsSync(`${file}-shm`)]).toEqual([false, false]);
    inspector = await startInspect(['--store', file, '--no-open'], dir);
  });

  afterAll(async () => {
    await browser?.close();
    if (inspector) {
      const { code, stdout, stderr } = await inspector.stop('SIGTERM');
      expect(code).toBe(0);
      expect(stderr).toBe('');
      expect(JSON.parse(stdout)).toEqual({ ok: true, result: { url: inspector.url } });
    }
    // Read-only: the store file is byte for byte what it was, and no -wal or -shm file is left
    // beside it (issue 37 item 6: a `readonly` SQLite connection used to leave both, the -wal empty).
    if (file) expect(sha(file)).toBe(before);
    if (file) expect([existsSync(`${file}-wal`), existsSync(`${file}-shm`)]).toEqual([false, false]);
    removeTempDirs();
  });

  it('prints one URL on 127.0.0.1 with a random token', () => {
    expect(inspector.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
  });

  it('answers 403 without the token or with a foreign Host header, 405 to anything but GET, and never sends CORS headers', async () => {
    const host = `127.0.0.1:${inspector.port}`;
    const withToken = { Host: host, 'X-Session-Checkpoint-Token': inspector.token };
    expect((await rawRequest(inspector.port, '/api/threads', { Host: host })).status).toBe(403);
    expect((await rawRequest(inspector.port, '/', { Host: host })).status).toBe(403);
    expect((await rawRequest(inspector.port, '/api/threads', { Host: host, 'X-Session-Checkpoint-Token': 'x'.repeat(32) })).status).toBe(403);
    expect((await rawRequest(inspector.port, '/api/threads', { Host: host, Cookie: `sc_inspect_${inspector.port}=wrong` })).status).toBe(403);
    // DNS rebinding: the right token, but the page's own host name.
    expect((await rawRequest(inspector.port, `/?token=${inspector.token}`, { Host: `evil.example:${inspector.port}` })).status).toBe(403);
    expect((await rawRequest(inspector.port, '/api/threads', { ...withToken, Host: `localhost:${inspector.port + 1}` })).status).toBe(403);
    expect((await rawRequest(inspector.port, '/api/threads', withToken, 'POST')).status).toBe(405);
    expect((await rawRequest(inspector.port, '/api/threads', withToken, 'DELETE')).status).toBe(405);

    const ok = await rawRequest(inspector.port, '/api/threads', { ...withToken, Origin: 'https://evil.example' });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    expect(ok.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await rawRequest(inspector.port, '/api/threads', { ...withToken, Host: `localhost:${inspector.port}` })).status).toBe(200);

    // First load: the token moves into an HttpOnly, SameSite=Strict cookie and out of the URL.
    const first = await rawRequest(inspector.port, `/?token=${inspector.token}`, { Host: host });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    expect(String(first.headers['set-cookie'])).toMatch(new RegExp(`^sc_inspect_${inspector.port}=${inspector.token}; Path=/; HttpOnly; SameSite=Strict$`));
    // The redirect stays on this server whatever the request line says.
    expect((await rawRequest(inspector.port, `//evil.example/?token=${inspector.token}`, { Host: host })).headers.location).toBeUndefined();
    expect((await rawRequest(inspector.port, `/?token=${inspector.token}&x=1`, { Host: host })).headers.location).toBe('/?x=1');
    const page = await rawRequest(inspector.port, '/', { Host: host, Cookie: `sc_inspect_${inspector.port}=${inspector.token}` });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script type="module" src="/assets/inspect.js">');
    // Every asset is served by this server: no other origin is named anywhere in the page.
    expect(page.body).not.toMatch(/https?:\/\//);
  });

  it('answers 400 to a target that is an absolute URL or to two Host headers, even with the token', async () => {
    const host = `Host: 127.0.0.1:${inspector.port}`;
    const token = `X-Session-Checkpoint-Token: ${inspector.token}`;
    // The same request in origin form is served: only the form of the target or the headers differs.
    expect((await rawHttp(inspector.port, ['GET /api/threads HTTP/1.1', host, token])).status).toBe(200);
    const absolute = await rawHttp(inspector.port, ['GET http://evil.example/api/threads HTTP/1.1', host, token]);
    expect(absolute.status).toBe(400);
    expect(absolute.text).toContain('must be a path on this server');
    expect((await rawHttp(inspector.port, [`GET http://127.0.0.1:${inspector.port}/api/threads HTTP/1.1`, host, token])).status).toBe(400);
    const twoHosts = await rawHttp(inspector.port, ['GET /api/threads HTTP/1.1', host, 'Host: evil.example', token]);
    expect(twoHosts.status).toBe(400);
    expect(twoHosts.text).toContain('exactly one Host header');
    expect((await rawHttp(inspector.port, ['GET /api/threads HTTP/1.1', 'Host: evil.example', host, token])).status).toBe(400);
    expect((await rawHttp(inspector.port, ['GET /api/threads HTTP/1.0', token])).status).toBe(400);
  });

  it('asks the system to open the URL without --no-open, serves on when no browser opens, and reports a port in use', async () => {
    // A stand-in for xdg-open that records what it was asked to open.
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(join(dir, 'opened.txt'))}\n`, { mode: 0o755 });
    const opened = await startInspect(['--store', file], dir, { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` });
    await expect.poll(() => (existsSync(join(dir, 'opened.txt')) ? readFileSync(join(dir, 'opened.txt'), 'utf8') : '')).toBe(opened.url);
    expect((await opened.stop('SIGINT')).code).toBe(0);
    // No opener at all: the URL is printed and the server runs.
    const alone = await startInspect(['--store', file], dir, { PATH: join(dir, 'no-such-dir') });
    expect((await rawRequest(alone.port, '/api/threads', { Host: `127.0.0.1:${alone.port}`, 'X-Session-Checkpoint-Token': alone.token })).status).toBe(200);
    expect((await alone.stop()).code).toBe(0);
    // The running inspector's port is taken.
    const taken = await runCli(['inspect', '--store', file, '--no-open', '--port', String(inspector.port)], { cwd: dir });
    expect(taken.code).toBe(1);
    expect(JSON.parse(taken.stdout)).toMatchObject({ ok: false, type: 'OSError' });
  });

  it.skipIf(!BROWSER)('an answer for the thread shown before, arriving after the thread picked, never replaces its timeline', async () => {
    browser ??= await launch();
    const page = await browser.newPage();
    // Hold back every timeline answer for another thread (the first thread is shown on load) until
    // the picked thread's timeline is drawn, then let them through: the order a slow server gives.
    const held: (() => Promise<void>)[] = [];
    let release!: () => void;
    const drawn = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/timeline\?/, async (route) => {
      if (new URL(route.request().url()).searchParams.get('thread') === fixture.thread) return route.continue();
      let answered!: () => void;
      const done = new Promise<void>((resolve) => (answered = resolve));
      held.push(() => done);
      await drawn;
      await route.continue();
      await page.waitForEvent('requestfinished', { predicate: (request) => request === route.request() });
      answered();
    });
    await page.goto(inspector.url);
    await openThread(page, fixture.thread);
    expect(held.length).toBeGreaterThan(0);
    release();
    await Promise.all(held.map((answered) => answered()));
    // The held answers have reached the page; the timeline is still the picked thread's.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))');
    expect(await page.locator('.entries [data-checkpoint-id]').count()).toBe(fixture.checkpoints.length);
    expect(await page.locator(`.entries [data-checkpoint-id="${fixture.checkpoints[0]}"]`).count()).toBe(1);
    await page.close();
  });

  it.skipIf(!BROWSER)('"what the agent believed at step 3 and what changed at step 4" takes two clicks, as it takes two commands', async () => {
    const cli = async (args: string[]) => {
      const r = await runCli([...args, '--store', file, '--thread', fixture.thread], { cwd: dir });
      const doc = JSON.parse(r.stdout) as { ok: boolean; result: any };
      expect(doc.ok, r.stdout).toBe(true);
      return doc.result;
    };
    const believed = await cli(['state', '--step', '3']);
    const changed = await cli(['diff', '--from-step', '3', '--to-step', '4']);
    const story = await cli(['timeline']);
    browser ??= await launch();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // The thread as a link would open it (after the token's first load); then two clicks.
    await page.goto(inspector.url);
    await page.goto(`http://127.0.0.1:${inspector.port}/?story#family=langgraph&namespace=langgraph&thread=${fixture.thread}`);
    await page.locator(`.thread-title code`, { hasText: fixture.thread }).waitFor();
    await page.locator('.timeline[data-loading="false"] .entries [data-checkpoint-id]').first().waitFor();
    // Click 1: step 3 (of the line the thread continues on): the messages it held, as role and text.
    await page.locator('.entries [data-step="3"][data-latest-line="true"]').click();
    const state = page.locator(`.state-view[data-state-for="${believed.checkpoint_id}"]`);
    await state.waitFor();
    const shown = await state.locator('.messages .message').evaluateAll((items) => items.map((item) => `${item.querySelector('.role')?.textContent}: ${item.querySelector('.text')?.textContent}`));
    const texts = (believed.values.messages as { id: string[]; kwargs: { content: string } }[]).map((m) => `${m.id[m.id.length - 1] === 'HumanMessage' ? 'human' : 'ai'}: ${m.kwargs.content}`);
    expect(shown).toEqual(texts);
    // Click 2: step 4: what changed there, the same operations as the CLI's diff (no wiring channel).
    await page.locator('.entries [data-step="4"][data-latest-line="true"]').click();
    const change = page.locator(`.step-change[data-change-for="${changed.to}"]`);
    await change.locator('.op').first().waitFor();
    const ops = await change.locator('.op').evaluateAll((items) => items.map((item) => `${item.getAttribute('data-op')} ${item.getAttribute('data-path')}`));
    expect(ops).toEqual((changed.patch as { op: string; path: string }[]).map((op) => `${op.op} ${op.path}`));
    await shot(page, 'story');

    // The rows tell the story: the nodes that ran and a preview of the message each added, as the CLI's timeline does.
    await expect.poll(() => page.locator('.entries .nodes').count()).toBeGreaterThan(0);
    for (const entry of (story.entries as { checkpoint_id: string; nodes: string[]; messages_added: { role: string; text: string }[] }[]).slice(0, 6)) {
      const row = page.locator(`.entries [data-checkpoint-id="${entry.checkpoint_id}"]`);
      expect(await row.locator('.nodes').count()).toBe(entry.nodes.length > 0 ? 1 : 0);
      if (entry.nodes.length > 0) expect(await row.locator('.nodes').textContent()).toBe(entry.nodes.join(', '));
      if (entry.messages_added.length > 0) expect(await row.locator('.preview').textContent()).toContain(entry.messages_added[0]!.text);
    }
    // The original line stays the main line; the fork is the branch, the latest step marked.
    const lanes = await page.locator('.entries [data-checkpoint-id]').evaluateAll((items) => items.map((item) => [item.getAttribute('data-checkpoint-id'), item.getAttribute('data-main-line')]));
    const main = new Map((story.entries as { checkpoint_id: string; main_line: boolean }[]).map((e) => [e.checkpoint_id, String(e.main_line)]));
    for (const [id, lane] of lanes) expect(lane, id ?? '').toBe(main.get(id!));
    expect(await page.locator(`.entries [data-checkpoint-id="${fixture.checkpoints[0]}"] .latest`).count()).toBe(1);

    // A message's raw LangChain form is one click away.
    await page.locator(`.state-view .message .raw-toggle`).first().click();
    await expect.poll(() => page.locator('.state-view .message .tree.raw').first().textContent()).toContain('kwargs');
    // LangGraph's internal channels are hidden until asked for.
    expect(await change.locator('.op[data-path^="/branch:"], .op[data-path^="/__start__"]').count()).toBe(0);
    await page.locator('[data-internal-toggle]').check();
    await expect.poll(() => page.locator(`.step-change[data-change-for="${changed.to}"] .op`).count()).toBe(changed.patch.length + changed.internal_hidden);

    // A thread waiting on an interrupt is marked, on its title and its latest step.
    await page.goto(`http://127.0.0.1:${inspector.port}/?thread#family=langgraph&namespace=langgraph&thread=${fixture.waitingThread}`);
    await page.locator('[data-waiting-interrupt]').waitFor();
    await expect.poll(() => page.locator(`.entries [data-checkpoint-id="${fixture.waitingAt}"] [data-interrupt="waiting"]`).textContent()).toContain('Send the e-mail?');
    await shot(page, 'interrupt', '.center');
    expect(errors).toEqual([]);
    await page.close();
  });

  it.skipIf(!BROWSER)(`walks the stored history in Chromium${CHROMIUM ? '' : ' (no chromium on PATH)'}`, async () => {
    browser = await launch();
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      // A failed request is logged by the browser too; those are checked one by one below.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
    });
    const failures: string[] = [];
    page.on('response', (response) => {
      const params = new URL(response.url()).searchParams;
      if (response.status() >= 400) failures.push(`${response.status()} ${new URL(response.url()).pathname}?${params.get('checkpoint') ?? params.get('to')}`);
    });
    await page.goto(inspector.url);
    expect(new URL(page.url()).searchParams.get('token')).toBeNull();

    // The threads of every family.
    await page.locator('.thread').first().waitFor();
    const families = await page.locator('.thread').evaluateAll((items) => items.map((item) => `${item.getAttribute('data-family')}:${item.getAttribute('data-thread-id')}`));
    expect(families).toEqual(expect.arrayContaining([`langgraph:${fixture.thread}`, `openai-agents:${fixture.agentSession}`, `checkpoints:${fixture.plainSession}`]));

    // The LangGraph thread: every checkpoint on the timeline, latest first, the fork drawn.
    await openThread(page, fixture.thread);
    const ids = await page.locator('.entries [data-checkpoint-id]').evaluateAll((items) => items.map((item) => item.getAttribute('data-checkpoint-id')));
    expect(new Set(ids)).toEqual(new Set(fixture.checkpoints));
    expect(ids[0]).toBe(fixture.checkpoints[0]);
    await expect.poll(() => page.locator('.entry.branch').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator(`[data-checkpoint-id="${fixture.forkedFrom}"] .fork`).count()).toBe(1);
    await expect.poll(() => page.locator('.chart canvas').count()).toBeGreaterThan(0);

    // Paging: five at a time, "load earlier" until the first step.
    const paged = await context.newPage();
    await paged.goto(`http://127.0.0.1:${inspector.port}/#family=langgraph&namespace=langgraph&thread=${fixture.thread}&limit=5`);
    await paged.locator('.timeline[data-loading="false"] .entries [data-checkpoint-id]').first().waitFor();
    expect(await paged.locator('.entries [data-checkpoint-id]').count()).toBe(5);
    for (const count of [10, fixture.checkpoints.length]) {
      await paged.locator('.load-earlier').click();
      await expect.poll(() => paged.locator('.entries [data-checkpoint-id]').count()).toBe(count);
    }
    await paged.locator('.timeline-end').waitFor();
    expect(await paged.locator('.entries [data-checkpoint-id]').evaluateAll((items) => items.map((item) => item.getAttribute('data-checkpoint-id')))).toEqual(ids);
    await paged.close();

    // Pick a step and read its state.
    const step = fixture.checkpoints[1]!;
    await page.locator(`.entries [data-checkpoint-id="${step}"]`).click();
    const state = page.locator(`.state-view[data-state-for="${step}"]`);
    await state.waitFor();
    await expect.poll(() => state.locator('[data-path="/values/messages"]').count()).toBe(1);
    await shot(page, 'state');

    // The diff against its parent, then against another step.
    await page.locator('button[data-tab="diff"]').click();
    await page.locator('.diff-view .op').first().waitFor();
    const ops = await page.locator('.diff-view .op').evaluateAll((items) => items.map((item) => `${item.getAttribute('data-op')} ${item.getAttribute('data-path')}`));
    expect(ops.length).toBeGreaterThan(0);
    await page.locator('select[data-compare]').selectOption(fixture.checkpoints[fixture.checkpoints.length - 1]!);
    await page.locator(`.diff-view[data-diff-from="${fixture.checkpoints[fixture.checkpoints.length - 1]}"] .op`).first().waitFor();
    await shot(page, 'diff', '.detail');

    // The writes of a step.
    await page.locator('button[data-tab="writes"]').click();
    await page.locator('.writes').waitFor();

    // Filter by a changed path: only steps that changed /turns are left, each with its change.
    await page.locator('.filter input').fill('/turns');
    await page.locator('.filter button[type="submit"]').click();
    await page.locator('.timeline[data-filter="/turns"][data-loading="false"]').waitFor();
    const filtered = await page.locator('.entries [data-checkpoint-id]').count();
    expect(filtered).toBeGreaterThan(0);
    expect(await page.locator('.entries [data-checkpoint-id] .changes').count()).toBe(filtered);
    await shot(page, 'filter', '.center');
    expect(filtered).toBeLessThan(ids.length);
    await page.locator('.filter .clear').click();
    await page.locator('.timeline[data-filter=""][data-loading="false"]').waitFor();
    expect(await page.locator('.entries [data-checkpoint-id]').count()).toBe(ids.length);

    // Export a redacted debug bundle of the selected step.
    await page.locator(`.entries [data-checkpoint-id="${fixture.checkpoints[0]}"]`).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-bundle').click()]);
    const text = readFileSync((await download.path())!, 'utf8');
    const bundle = JSON.parse(text) as { thread: { thread_id: string }; timeline: { checkpoint_id: string }[]; selected: { id: string; state: { values: { messages: unknown[] } } } };
    expect(bundle.thread.thread_id).toBe(fixture.thread);
    expect(bundle.timeline.map((entry) => entry.checkpoint_id)).toEqual(ids);
    expect(bundle.selected.id).toBe(fixture.checkpoints[0]);
    expect(bundle.selected.state.values.messages.length).toBeGreaterThan(2);
    for (const secret of fixture.privateTexts) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted');

    // The OpenAI Agents session: its positions on the timeline and its items.
    await openThread(page, fixture.agentSession);
    await page.locator('button[data-tab="state"]').click();
    await page.locator('.state-view').waitFor();
    await expect.poll(() => page.locator('.state-view [data-path="/items"]').count()).toBe(1);

    // Plain checkpoints with the tampered row: shown, marked failed, its state refused.
    await openThread(page, fixture.plainSession);
    const tampered = page.locator(`.entries [data-checkpoint-id="${fixture.plainRows[1]}"]`);
    await expect.poll(() => tampered.getAttribute('data-verified')).toBe('false');
    expect(await page.locator('.entries [data-checkpoint-id]').count()).toBe(fixture.plainRows.length);
    // A filter keeps the failed row, and the step after it whose change cannot be computed.
    await page.locator('.filter input').fill('/step');
    await page.locator('.filter button[type="submit"]').click();
    await page.locator('.timeline[data-filter="/step"][data-loading="false"]').waitFor();
    expect(await page.locator('.entries [data-checkpoint-id]').count()).toBe(fixture.plainRows.length);
    expect(await page.locator(`.entries [data-checkpoint-id="${fixture.plainRows[2]}"] .change-error`).count()).toBe(1);
    await page.locator('.filter .clear').click();
    await page.locator('.timeline[data-filter=""][data-loading="false"]').waitFor();
    await tampered.click();
    await page.locator('.detail > .verify-failed').waitFor();
    // What the tampered step changed cannot be computed either: said so, not shown empty.
    await page.locator(`.step-change[data-change-for="${fixture.plainRows[1]}"] .verify-failed`).waitFor();
    expect(Number(await page.locator('.verification').getAttribute('data-rows-failed'))).toBeGreaterThanOrEqual(1);
    await shot(page, 'tampered');

    expect(errors).toEqual([]);
    // The requests that failed: the tampered row's state and what it changed, refused by verification.
    expect([...failures].sort(), failures.join('\n')).toEqual([`500 /api/diff?${fixture.plainRows[1]}`, `500 /api/state?${fixture.plainRows[1]}`]);
    // Nothing but this server was asked for anything.
    expect(requests.filter((url) => !url.startsWith(`http://127.0.0.1:${inspector.port}/`))).toEqual([]);
  });
});

describe.skipIf(!PG_URL)('session-checkpoint inspect on PostgreSQL', () => {
  const schema = `sc_cli_inspect_${process.pid}`;
  let inspector: InspectChild | undefined;
  let browser: Browser | undefined;

  afterAll(async () => {
    await browser?.close();
    if (inspector) expect((await inspector.stop('SIGINT')).code).toBe(0);
    const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
    removeTempDirs();
  });

  it.skipIf(!BROWSER)('shows the same threads, states and the tampered row', async () => {
    const store = await openPostgresStore(PG_URL!, { schema, create: true });
    let fixture: InspectFixture;
    try {
      fixture = await writeInspectFixture(store);
    } finally {
      await store.close();
    }
    const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
    await pool.query(`update "${schema}".checkpoints set payload_json = replace(payload_json, 'step 2', 'step 2, edited') where id = $1`, [fixture.plainRows[1]]);
    await pool.end();
    inspector = await startInspect(['--database-url', PG_URL!, '--schema', schema, '--no-open'], tempDir('sc-inspect-pg-'));

    browser = await launch();
    const page = await browser.newPage();
    await page.goto(inspector.url);
    await openThread(page, fixture.thread);
    expect(await page.locator('.entries [data-checkpoint-id]').count()).toBe(fixture.checkpoints.length);
    await page.locator(`.entries [data-checkpoint-id="${fixture.checkpoints[2]}"]`).click();
    await page.locator(`.state-view[data-state-for="${fixture.checkpoints[2]}"] [data-path="/values/messages"]`).waitFor();
    await openThread(page, fixture.plainSession);
    await expect.poll(() => page.locator(`.entries [data-checkpoint-id="${fixture.plainRows[1]}"]`).getAttribute('data-verified')).toBe('false');
  });
});
