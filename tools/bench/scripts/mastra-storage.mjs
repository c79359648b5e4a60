#!/usr/bin/env node
// Mastra storage (issue 38): this package's memory and workflows domains against @mastra/libsql and
// @mastra/pg on the same machine. Each contender runs in a fresh child process per run (no contender
// warms another's code), in rotating order; each phase is timed over many calls after a warm-up, as
// CPU time of the process (user + system, process.cpuUsage) and wall time. CPU time is what the
// report's ratios use for the SQLite contenders (the machine is shared; wall time moves with its
// load); for PostgreSQL the server does part of the work, so wall time is shown beside it.
//   save       saveMessages of one turn (a user and an assistant message, about 600 bytes each)
//   recall     listMessages of the last 20 of a 1,000-message thread, newest first, includeTotal: false
//              (what an agent's memory recall asks)
//   page       listMessages page 12 of 40 (messages 481-520) of that thread, with its total
//   persist    persistWorkflowSnapshot of a 4 KB snapshot (20 runs in turn)
//   load       loadWorkflowSnapshot of those runs
// SQLite: both in WAL mode at synchronous=NORMAL (@mastra/libsql's settings; our store opened with durability "normal").
// PostgreSQL (when SC_PG_URL is set): a schema of its own per contender and run, dropped after.
//
// Usage: node tools/bench/scripts/mastra-storage.mjs [runs=5] [contenders=ours-sqlite,libsql,ours-pg,mastra-pg]
// With SC_MASTRA_BASELINE=<a copy of packages/mastra/dist inside the repository> the contenders
// base-sqlite and base-pg run that build too (a before/after in the same run); with also
// SC_SK_BASELINE=<a copy of packages/store-kysely/dist inside the repository> they open their store
// from that build of store-kysely too (for a change in store-kysely, which both builds share otherwise).
// (Node 22.13+, after `npm run build`). Prints one JSON line per contender and run, then medians and ratios.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PHASES = ['save', 'recall', 'page', 'persist', 'load'];
const CALLS = { save: 300, recall: 400, page: 150, persist: 300, load: 400 };
const WARMUP = 20;

if (process.env.SC_MASTRA_BENCH_CHILD) {
  await child(process.env.SC_MASTRA_BENCH_CHILD, process.env.SC_MASTRA_BENCH_DIR);
} else {
  const runs = Number(process.argv[2] ?? 5);
  const pg = process.env.SC_PG_URL;
  const base = process.env.SC_MASTRA_BASELINE ? ',base-sqlite,base-pg' : '';
  const contenders = (process.argv[3] ?? `ours-sqlite,libsql,ours-pg,mastra-pg${base}`).split(',').filter((c) => pg || !c.endsWith('-pg'));
  const dir = mkdtempSync(join(tmpdir(), 'sc-mastra-bench-'));
  const results = new Map(contenders.map((c) => [c, []]));
  try {
    for (let run = 0; run < runs; run++) {
      for (let i = 0; i < contenders.length; i++) {
        const who = contenders[(i + run) % contenders.length];
        const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, SC_MASTRA_BENCH_CHILD: who, SC_MASTRA_BENCH_DIR: join(dir, `${who}-${run}`) }, encoding: 'utf8', maxBuffer: 1 << 20 });
        const result = JSON.parse(out.trim().split('\n').pop());
        console.log(JSON.stringify({ run, contender: who, ...result }));
        results.get(who).push(result);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  console.log('\nmedians, µs per call (CPU / wall):');
  for (const phase of PHASES) {
    console.log(`  ${phase.padEnd(8)} ${contenders.map((c) => `${c} ${median(results.get(c).map((r) => r[phase].cpu)).toFixed(0)} / ${median(results.get(c).map((r) => r[phase].wall)).toFixed(0)}`).join('   ')}`);
  }
  const pairs = [['ours-sqlite', 'libsql'], ['ours-pg', 'mastra-pg'], ['base-sqlite', 'libsql'], ['base-pg', 'mastra-pg']].filter(([a, b]) => results.has(a) && results.has(b));
  console.log('\nthroughput ratios (ours / theirs; above 1 is faster), median of per-run ratios [min-max]:');
  for (const [a, b] of pairs) {
    for (const phase of PHASES) {
      const per = (metric) => results.get(a).map((r, i) => results.get(b)[i][phase][metric] / r[phase][metric]);
      const show = (xs) => `${median(xs).toFixed(2)}x [${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}]`;
      console.log(`  ${a} vs ${b} ${phase.padEnd(8)} CPU ${show(per('cpu'))}   wall ${show(per('wall'))}`);
    }
  }
}

/** One contender: fills a 1,000-message thread, then times each phase. Prints one JSON line. */
async function child(who, dir) {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(dir, { recursive: true });
  const schema = `sc_mbench_${process.pid}`;
  const { memory, workflows, close } = await open(who, dir, schema);
  const text = (i, words) => `${words} ${i}: `.padEnd(560, 'lorem ipsum dolor sit amet ');
  const message = (thread, i, role) => ({ id: `${thread}-${i}`, threadId: thread, resourceId: 'user-1', role, type: 'v2', createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000), content: { format: 2, parts: [{ type: 'text', text: text(i, role) }] } });
  const now = new Date();
  for (const thread of ['big', 'writes']) await memory.saveThread({ thread: { id: thread, resourceId: 'user-1', title: thread, createdAt: now, updatedAt: now } });
  for (let at = 0; at < 1000; at += 50) await memory.saveMessages({ messages: Array.from({ length: 50 }, (_, k) => message('big', at + k, (at + k) % 2 ? 'assistant' : 'user')) });
  const snapshot = (runId, i) => ({ runId, status: 'running', value: {}, activePaths: [0], serializedStepGraph: [], suspendedPaths: {}, waitingPaths: {}, resumeLabels: {}, timestamp: i, context: { input: { amount: i }, step1: { status: 'success', output: { text: 'x'.repeat(3500), i } } } });

  let turn = 0;
  const ops = {
    save: () => memory.saveMessages({ messages: [message('writes', 2 * turn, 'user'), message('writes', 2 * turn++ + 1, 'assistant')] }),
    recall: async () => {
      const r = await memory.listMessages({ threadId: 'big', perPage: 20, page: 0, orderBy: { field: 'createdAt', direction: 'DESC' }, includeTotal: false });
      if (r.messages.length !== 20 || r.messages[0].id !== 'big-999') throw new Error(`${who}: recall returned the wrong messages`);
    },
    page: async () => {
      const r = await memory.listMessages({ threadId: 'big', perPage: 40, page: 12 });
      if (r.messages.length !== 40 || r.messages[0].id !== 'big-480' || r.total !== 1000) throw new Error(`${who}: page 12 returned the wrong messages`);
    },
    persist: (i) => workflows.persistWorkflowSnapshot({ workflowName: 'bench', runId: `run-${i % 20}`, snapshot: snapshot(`run-${i % 20}`, i) }),
    load: async (i) => {
      const s = await workflows.loadWorkflowSnapshot({ workflowName: 'bench', runId: `run-${i % 20}` });
      if (s?.context?.step1?.output?.text?.length !== 3500) throw new Error(`${who}: load returned the wrong snapshot`);
    },
  };
  const result = {};
  for (const phase of PHASES) {
    for (let i = 0; i < WARMUP; i++) await ops[phase](i);
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < CALLS[phase]; i++) await ops[phase](i);
    const wall = Number(process.hrtime.bigint() - t0) / 1e3 / CALLS[phase];
    const used = process.cpuUsage(cpu0);
    result[phase] = { cpu: (used.user + used.system) / CALLS[phase], wall };
  }
  await close();
  console.log(JSON.stringify(result));
}

async function open(who, dir, schema) {
  if (who === 'ours-sqlite' || who === 'ours-pg' || who === 'base-sqlite' || who === 'base-pg') {
    const { pathToFileURL } = await import('node:url');
    const { resolve } = await import('node:path');
    const { openSqliteStore, openPostgresStore } = await import(who.startsWith('base-') && process.env.SC_SK_BASELINE ? pathToFileURL(join(resolve(process.env.SC_SK_BASELINE), 'index.js')).href : '@session-checkpoint/store-kysely');
    const built = who.startsWith('base-') ? pathToFileURL(join(resolve(process.env.SC_MASTRA_BASELINE), 'index.js')).href : '@session-checkpoint/mastra';
    const { CheckpointMemoryStorage, CheckpointWorkflowsStorage } = await import(built);
    const store = who.endsWith('-sqlite') ? await openSqliteStore(join(dir, 'ours.sqlite'), { durability: 'normal' }) : await openPostgresStore(process.env.SC_PG_URL, { schema });
    const drop = who.endsWith('-pg') ? () => dropSchema(schema) : async () => undefined;
    return { memory: new CheckpointMemoryStorage(store), workflows: new CheckpointWorkflowsStorage(store), close: async () => (await store.close(), await drop()) };
  }
  if (who === 'libsql') {
    const { LibSQLStore } = await import('@mastra/libsql');
    const s = new LibSQLStore({ id: 'bench', url: `file:${join(dir, 'libsql.db')}` });
    await s.init();
    return { memory: await s.getStore('memory'), workflows: await s.getStore('workflows'), close: async () => undefined };
  }
  const { PostgresStore } = await import('@mastra/pg');
  const s = new PostgresStore({ id: 'bench', connectionString: process.env.SC_PG_URL, schemaName: schema });
  await s.init();
  return { memory: await s.getStore('memory'), workflows: await s.getStore('workflows'), close: async () => (await s.close?.(), await dropSchema(schema)) };
}

async function dropSchema(schema) {
  const { dropSchema: drop } = await import('./drop-pg-schema.mjs');
  await drop(process.env.SC_PG_URL, schema);
}
