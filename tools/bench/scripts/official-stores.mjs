#!/usr/bin/env node
// Reading the official savers' stores where they are (issue 37, item 2): `@session-checkpoint/langgraph/official`
// against the official savers' own reads, in one process, back to back.
//
// 1. `state` of the latest checkpoint of a TURNS-turn chat thread (a one-node StateGraph, one
//    human and one AI message a turn, AI messages of MSG bytes), written by the real SqliteSaver
//    and PostgresSaver: `officialState` vs the saver's own `getTuple` (median of RUNS each, after
//    one warm-up), plus the whole timeline walked in pages of 100 with the V8 heap sampled.
// 2. The inspector's first paint of a PAINT-checkpoint PostgresSaver thread: the real
//    `session-checkpoint inspect --from postgres://...` opened ROUNDS times in the system Chromium
//    (playwright-core), each in a fresh context; the page's own clock from the navigation to the
//    frame after the first timeline page (and the latest state) is in the document.
//
// Usage (after the build; PostgreSQL from SC_PG_URL):
//   node tools/bench/scripts/official-stores.mjs [turns=300] [msgBytes=1000] [paintCheckpoints=1500] [rounds=7]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { officialState, officialStoreStats, officialTimeline, openOfficialStore } from '@session-checkpoint/langgraph/official';
import pg from 'pg';
import { chromium } from 'playwright-core';

const turns = Number(process.argv[2] ?? 300);
const msgBytes = Number(process.argv[3] ?? 1000);
const paintCheckpoints = Number(process.argv[4] ?? 1500);
const rounds = Number(process.argv[5] ?? 7);
const RUNS = 9;
const PG_URL = process.env.SC_PG_URL;
const cli = fileURLToPath(new URL('../../../packages/cli/bin/run.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'sc-official-bench-'));
const schema = `sc_offbench_${process.pid}`;
const log = (text) => process.stderr.write(`${text}\n`);
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** Runs a one-node chat graph for `n` turns on `saver`; returns the checkpoints written. */
async function writeChat(saver, location, n, bytes) {
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('agent', (s) => ({ messages: [new AIMessage(`answer ${s.messages.length}: ${'lorem ipsum '.repeat(Math.ceil(bytes / 12)).slice(0, bytes)}`)] }))
    .addEdge(START, 'agent')
    .compile({ checkpointer: saver });
  const config = { configurable: { thread_id: 'long-chat' } };
  const started = performance.now();
  for (let t = 0; t < n; t++) {
    await graph.invoke({ messages: [new HumanMessage(`question ${t}`)] }, config);
    if (t % 25 === 0) process.stderr.write(`\r${t} turns`);
  }
  // Counted in SQL: PostgresSaver's own list would read every blob of the thread first.
  const store = await openOfficialStore(location);
  const count = (await officialStoreStats(store)).totals.checkpoints;
  await store.close();
  process.stderr.write(`\r${n} turns, ${count} checkpoints in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  return count;
}

/** Median ms of `fn` over RUNS runs after one warm-up. */
async function timed(fn) {
  await fn();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return Math.round(median(times) * 10) / 10;
}

/** Peak V8 heap (MiB) while `fn` runs, sampled every 5 ms, after a GC when exposed. */
async function peakHeap(fn) {
  globalThis.gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  await fn();
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { peakMiB: Math.round((peak / 2 ** 20) * 10) / 10, aboveStartMiB: Math.round(((peak - base) / 2 ** 20) * 10) / 10 };
}

/** Walks every page of the timeline (100 a page). */
async function walkTimeline(store) {
  let cursor;
  let n = 0;
  do {
    const page = await officialTimeline(store, { threadId: 'long-chat', limit: 100, ...(cursor === undefined ? {} : { cursor }) });
    n += page.entries.length;
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return n;
}

async function stateFigures(kind, saver, location) {
  const checkpoints = await writeChat(saver, location, turns, msgBytes);
  const store = await openOfficialStore(location);
  try {
    const config = { configurable: { thread_id: 'long-chat' } };
    const theirs = await timed(() => saver.getTuple(config));
    const ours = await timed(() => officialState(store, { threadId: 'long-chat' }));
    const firstPage = await timed(() => officialTimeline(store, { threadId: 'long-chat', limit: 100 }));
    let walked = 0;
    const walk = await peakHeap(async () => (walked = await walkTimeline(store)));
    const stats = (await officialStoreStats(store)).threads[0];
    return {
      backend: kind,
      checkpoints,
      bytes: stats?.bytes,
      estimatedBytesInOurLayout: stats?.estimated_bytes_in_our_layout,
      latestStateMs: { officialState: ours, theirGetTuple: theirs, ratio: Math.round((ours / theirs) * 100) / 100 },
      timelineFirstPageMs: firstPage,
      timelineWalk: { entries: walked, ...walk },
    };
  } finally {
    await store.close();
  }
}

async function paintFigures(location, args) {
  const chromiumPath = execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  const child = spawn(process.execPath, [cli, 'inspect', '--from', location, ...args, '--no-open'], { stdio: ['ignore', 'pipe', 'inherit'] });
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
  const { port, searchParams } = new URL(url);
  const api = async (path) => {
    const times = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'X-Session-Checkpoint-Token': searchParams.get('token') } });
      await response.arrayBuffer();
      times.push(performance.now() - t);
    }
    return Math.round(median(times));
  };
  const ns = encodeURIComponent(args.includes('--schema') ? args[args.indexOf('--schema') + 1] : 'main');
  const serverMs = {
    threads: await api('/api/threads'),
    timelinePage: await api(`/api/timeline?family=langgraph&namespace=${ns}&thread=long-chat&limit=100`),
    latestState: await api(`/api/state?family=langgraph&namespace=${ns}&thread=long-chat`),
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
    results.push({ timelineMs: Math.round(timeline), stateMs: Math.round(state), entriesDrawn: await page.locator('.entries [data-checkpoint-id]').count() });
    await context.close();
  }
  await browser.close();
  child.kill('SIGTERM');
  return {
    chromium: execFileSync(chromiumPath, ['--version'], { encoding: 'utf8' }).trim(),
    serverMs,
    median: { timelineMs: median(results.map((r) => r.timelineMs)), stateMs: median(results.map((r) => r.stateMs)) },
    min: { timelineMs: Math.min(...results.map((r) => r.timelineMs)) },
    max: { timelineMs: Math.max(...results.map((r) => r.timelineMs)) },
    results,
  };
}

const report = { node: process.version, turns, msgBytes, runs: RUNS, state: [], paint: null };
try {
  const file = join(dir, 'chat.db');
  const sqlite = SqliteSaver.fromConnString(file);
  report.state.push(await stateFigures('SqliteSaver', sqlite, `sqlite:${file}`));
  sqlite.db.close();
  report.state[0].fileBytes = statSync(file).size;
  if (PG_URL) {
    const saver = PostgresSaver.fromConnString(PG_URL, { schema });
    await saver.setup();
    report.state.push(await stateFigures('PostgresSaver', saver, `${PG_URL}?schema=${schema}`));
    await saver.end();
    // The first paint: a thread of PAINT checkpoints (three a turn), short messages.
    const paintSchema = `${schema}_paint`;
    const paintSaver = PostgresSaver.fromConnString(PG_URL, { schema: paintSchema });
    await paintSaver.setup();
    const written = await writeChat(paintSaver, `${PG_URL}?schema=${paintSchema}`, Math.ceil(paintCheckpoints / 3), 100);
    await paintSaver.end();
    report.paint = { backend: 'PostgresSaver', checkpoints: written, ...(await paintFigures(PG_URL, ['--schema', paintSchema])) };
  } else log('SC_PG_URL is not set: PostgresSaver figures skipped');
} finally {
  rmSync(dir, { recursive: true, force: true });
  if (PG_URL) {
    const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
    for (const s of [schema, `${schema}_paint`]) await pool.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    await pool.end();
  }
}
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
