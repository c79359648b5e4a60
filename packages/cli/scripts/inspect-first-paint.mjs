#!/usr/bin/env node
// The inspector's first paint of a long LangGraph thread: a StateGraph on SessionCheckpointSaver
// writes a chat of N checkpoints (default 1,500) into a SQLite store, the real
// `session-checkpoint inspect` serves it, and the system Chromium (playwright-core, no download)
// opens the printed URL ROUNDS times, each in a fresh browser context (so the token redirect and
// the cookie are part of every round). A round's figure is the page's own clock
// (performance.now(), from the start of the navigation, redirect included) when the first page of
// the timeline is in the document and painted (the next animation frame), and the same for the
// state of the latest step. Prints the median and every round as JSON.
//
// Usage (after the build): node packages/cli/scripts/inspect-first-paint.mjs [checkpoints=1500] [rounds=7] [chat|counter]
// `counter` writes a state of one small counter instead of a growing chat, to reach 10,000
// checkpoints in minutes rather than hours (the timeline's cost is per page, not per state).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { Annotation, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { SessionCheckpointSaver } from '@session-checkpoint/langgraph';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { chromium } from 'playwright-core';

const checkpoints = Number(process.argv[2] ?? 1500);
const rounds = Number(process.argv[3] ?? 7);
const shape = process.argv[4] ?? 'chat';
const cli = fileURLToPath(new URL('../bin/run.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'sc-inspect-paint-'));
const file = join(dir, 'chat.sqlite');

const State = Annotation.Root({ ...MessagesAnnotation.spec, turns: Annotation({ reducer: (_, b) => b, default: () => 0 }) });
const store = await openSqliteStore(file);
const graph = new StateGraph(State)
  .addNode('agent', (s) => (shape === 'chat' ? { turns: s.turns + 1, messages: [new AIMessage(`answer ${s.turns + 1}: ${'lorem ipsum '.repeat(8)}`)] } : { turns: s.turns + 1 }))
  .addEdge(START, 'agent')
  .compile({ checkpointer: new SessionCheckpointSaver(store) });
const config = { configurable: { thread_id: 'long-chat' } };
const count = async () => {
  let n = 0;
  for await (const _ of graph.checkpointer.list(config)) n++;
  return n;
};
const turn = (n) => graph.invoke(shape === 'chat' ? { messages: [new HumanMessage(`question ${n}`)] } : { turns: n }, config);
const started = performance.now();
await turn(0);
const first = await count();
await turn(1);
const perTurn = (await count()) - first;
const turns = Math.max(0, Math.ceil((checkpoints - first - perTurn) / perTurn));
for (let n = 0; n < turns; n++) {
  await turn(n + 2);
  if (n % 50 === 0) process.stderr.write(`\r${n + 2} turns`);
}
const written = await count();
await store.close();
process.stderr.write(`\r${written} checkpoints written in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);

const chromiumPath = execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
const child = spawn(process.execPath, [cli, 'inspect', '--store', file, '--no-open'], { stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
const url = await new Promise((resolve, reject) => {
  child.stdout.on('data', (chunk) => {
    out += chunk;
    try {
      resolve(JSON.parse(out).result.url);
    } catch {
      // not whole yet
    }
  });
  child.on('exit', (code) => reject(new Error(`inspect exited with ${code}: ${out}`)));
});

// The server's own answers, timed from here (median of 5): what the page waits for first.
const { port, searchParams } = new URL(url);
const api = async (path) => {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'X-Session-Checkpoint-Token': searchParams.get('token') } });
    await response.arrayBuffer();
    times.push(performance.now() - t);
  }
  return Math.round(times.sort((a, b) => a - b)[2]);
};
const serverMs = {
  threads: await api('/api/threads'),
  timelinePage: await api('/api/timeline?family=langgraph&namespace=langgraph&thread=long-chat&limit=100'),
  latestState: await api('/api/state?family=langgraph&namespace=langgraph&thread=long-chat'),
};

const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const paint = (selector) => `new Promise((resolve) => { const look = () => document.querySelector(${JSON.stringify(selector)}) ? requestAnimationFrame(() => resolve(performance.now())) : setTimeout(look, 5); look(); })`;
const results = [];
for (let round = 0; round < rounds; round++) {
  const context = await browser.newContext({ viewport: { width: 1360, height: 820 } });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'commit' });
  const timeline = await page.evaluate(paint('.entries [data-checkpoint-id]'));
  const state = await page.evaluate(paint('.state-view'));
  const entries = await page.locator('.entries [data-checkpoint-id]').count();
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
  results.push({ timelineMs: Math.round(timeline), stateMs: Math.round(state), firstContentfulPaintMs: fcp === null ? null : Math.round(fcp), entriesDrawn: entries });
  await context.close();
}
await browser.close();
child.kill('SIGTERM');
rmSync(dir, { recursive: true, force: true });

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
};
process.stdout.write(
  `${JSON.stringify(
    {
      node: process.version,
      chromium: execFileSync(chromiumPath, ['--version'], { encoding: 'utf8' }).trim(),
      checkpoints: written,
      shape,
      rounds,
      serverMs,
      median: { timelineMs: median(results.map((r) => r.timelineMs)), stateMs: median(results.map((r) => r.stateMs)) },
      results,
    },
    null,
    2,
  )}\n`,
);
