#!/usr/bin/env node
// A sustained before/after of a Mastra persistWorkflowSnapshot on SQLite (issue 38 item 4,
// decision record 0056), for changes in core and store-kysely as well as in mastra, which
// mastra-storage.mjs's base contenders share: each build runs in a child process of its own, in
// alternation, persisting a 4 KB snapshot over 20 runs in turn (mastra-storage.mjs's persist
// phase) after a warm-up, and a one-turn saveMessages (two messages) likewise; CPU per call
// (process.cpuUsage, user + system) and wall. A build is a folder holding
// node_modules/@session-checkpoint/{core,store-kysely,mastra} (each with its package.json and
// dist), so mastra's and store-kysely's imports of core resolve inside it; `.` is this checkout.
// Usage (after npm run build):
//   node tools/bench/scripts/mastra-persist-loop.mjs [rounds=4] [persists=6000] [base folder] [saves=2000]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

if (process.env.SC_PERSIST_LOOP_CHILD) {
  await child(process.env.SC_PERSIST_LOOP_CHILD, Number(process.env.SC_PERSIST_LOOP_N), Number(process.env.SC_PERSIST_LOOP_SAVES));
} else {
  const rounds = Number(process.argv[2] ?? 4);
  const persists = Number(process.argv[3] ?? 6000);
  const builds = process.argv[4] ? [['this', '.'], ['base', process.argv[4]]] : [['this', '.']];
  const saves = Number(process.argv[5] ?? 2000);
  const results = new Map(builds.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < builds.length; k++) {
      const [name, root] = builds[(k + round) % builds.length];
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, SC_PERSIST_LOOP_CHILD: resolve(root), SC_PERSIST_LOOP_N: String(persists), SC_PERSIST_LOOP_SAVES: String(saves) }, encoding: 'utf8' });
      const r = JSON.parse(out.trim().split('\n').pop());
      console.log(JSON.stringify({ round, build: name, ...r }));
      results.get(name).push(r);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  for (const [name, rs] of results) {
    const show = (key) => `${median(rs.map((r) => r[key].cpu)).toFixed(1)} / ${median(rs.map((r) => r[key].wall)).toFixed(1)}`;
    console.log(`${name.padEnd(5)} median µs per call (CPU / wall): persist ${show('persist')}   save ${show('save')}`);
  }
}

async function child(root, persists, saves) {
  const at = (pkg) => pathToFileURL(join(root, 'node_modules', '@session-checkpoint', pkg, 'dist', 'index.js')).href;
  const { openSqliteStore } = await import(at('store-kysely'));
  const { CheckpointWorkflowsStorage, CheckpointMemoryStorage } = await import(at('mastra'));
  const dir = mkdtempSync(join(tmpdir(), 'mastra-persist-loop-'));
  const store = await openSqliteStore(join(dir, 'loop.sqlite'), { durability: 'normal' });
  const workflows = new CheckpointWorkflowsStorage(store);
  const memory = new CheckpointMemoryStorage(store);
  const snapshot = (runId, i) => ({ runId, status: 'running', value: {}, activePaths: [0], serializedStepGraph: [], suspendedPaths: {}, waitingPaths: {}, resumeLabels: {}, timestamp: i, context: { input: { amount: i }, step1: { status: 'success', output: { text: 'x'.repeat(3500), i } } } });
  const persist = (i) => workflows.persistWorkflowSnapshot({ workflowName: 'bench', runId: `run-${i % 20}`, snapshot: snapshot(`run-${i % 20}`, i) });
  const text = (i, words) => `${words} ${i}: `.padEnd(560, 'lorem ipsum dolor sit amet ');
  const message = (i, role) => ({ id: `writes-${i}`, threadId: 'writes', resourceId: 'user-1', role, type: 'v2', createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000), content: { format: 2, parts: [{ type: 'text', text: text(i, role) }] } });
  const now = new Date();
  await memory.saveThread({ thread: { id: 'writes', resourceId: 'user-1', title: 'writes', createdAt: now, updatedAt: now } });
  let turn = 0;
  const save = () => memory.saveMessages({ messages: [message(2 * turn, 'user'), message(2 * turn++ + 1, 'assistant')] });
  const timed = async (calls, fn, offset) => {
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await fn(offset + i);
    const wall = Number(process.hrtime.bigint() - t0) / 1e3 / calls;
    const used = process.cpuUsage(cpu0);
    return { cpu: (used.user + used.system) / calls, wall };
  };
  for (let i = 0; i < 300; i++) await persist(i);
  const p = await timed(persists, persist, 300);
  for (let i = 0; i < 100; i++) await save();
  const s = await timed(saves, save, 0);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(JSON.stringify({ persist: p, save: s }));
}
