#!/usr/bin/env node
// The JavaScript of each layer of a Mastra persistWorkflowSnapshot on SQLite, by subtraction
// (issue 38 item 4, decision record 0056): mastra-persist-account.mjs wraps every entry point in
// process.cpuUsage calls, which cost about as much as the parts they time. Here one process runs
// the persist (a 4 KB snapshot over 20 runs in turn, mastra-storage.mjs's persist phase) with
// the layers below a level replaced by a stub that answers at once:
//   build   the snapshot object only (the loop's own cost)
//   domain  the store's insertPreparedIfPresent stubbed: the domain and core's prepare
//           (validation, canonical JSON, SHA-256)
//   core    the adapter's insertIfPresent stubbed: + core's insertPreparedIfPresent
//   sk      better-sqlite3's Statement.run stubbed: + store-kysely (parameters, queue, runner)
//   full    nothing stubbed: + the SQLite statement
// in rotating rounds, CPU µs per persist (median [min-max] of the rounds). The difference of two
// levels is a layer's cost. A build is a folder holding node_modules/@session-checkpoint/{core,
// store-kysely,mastra} (see mastra-persist-loop.mjs); `.` is this checkout.
// Usage (after npm run build): node tools/bench/scripts/mastra-persist-layers.mjs [build folder=.] [rounds=9] [persists per round=20000]
import { pathToFileURL } from 'node:url';
import { mkdtempSync } from 'node:fs'; import { tmpdir } from 'node:os'; import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
const root = resolve(process.argv[2] ?? '.');
const at = (pkg) => pathToFileURL(join(root, 'node_modules', '@session-checkpoint', pkg, 'dist', 'index.js')).href;
const { openSqliteStore } = await import(at('store-kysely'));
const { CheckpointWorkflowsStorage } = await import(at('mastra'));
const snapshot = (runId, i) => ({ runId, status: 'running', value: {}, activePaths: [0], serializedStepGraph: [], suspendedPaths: {}, waitingPaths: {}, resumeLabels: {}, timestamp: i, context: { input: { amount: i }, step1: { status: 'success', output: { text: 'x'.repeat(3500), i } } } });
const proto = Object.getPrototypeOf(new Database(':memory:').prepare('select 1'));
const orig = proto.run;
let fakeId = 1e6;
const stubRun = function () { return { changes: 1, lastInsertRowid: fakeId++ }; };
async function setup(level) {
  const dir = mkdtempSync(join(tmpdir(), 'pl-'));
  const store = await openSqliteStore(join(dir, 'a.sqlite'), { durability: 'normal' });
  const workflows = new CheckpointWorkflowsStorage(store);
  for (let i = 0; i < 40; i++) await workflows.persistWorkflowSnapshot({ workflowName: 'bench', runId: `run-${i % 20}`, snapshot: snapshot(`run-${i % 20}`, i) });
  if (level === 'domain') store.insertPreparedIfPresent = async () => ({ id: fakeId++ });
  if (level === 'core') store.adapter.insertIfPresent = async () => fakeId++;
  let i = 100;
  const persist = () => { i++; return workflows.persistWorkflowSnapshot({ workflowName: 'bench', runId: `run-${i % 20}`, snapshot: snapshot(`run-${i % 20}`, i) }); };
  return persist;
}
const levels = ['build', 'domain', 'core', 'sk', 'full'];
const fns = {};
for (const l of levels) fns[l] = l === 'build' ? (() => { let i = 0; return async () => { i++; snapshot(`run-${i % 20}`, i); }; })() : await setup(l);
const rounds = Number(process.argv[3] ?? 9);
const N = Number(process.argv[4] ?? 20000);
const res = Object.fromEntries(levels.map((l) => [l, []]));
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < levels.length; k++) {
    const l = levels[(k + r) % levels.length];
    proto.run = l === 'sk' ? stubRun : orig;
    const fn = fns[l];
    for (let j = 0; j < 1000; j++) await fn();
    const c0 = process.cpuUsage(); for (let j = 0; j < N; j++) await fn(); const u = process.cpuUsage(c0);
    res[l].push((u.user + u.system) / N);
  }
}
proto.run = orig;
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(root, Object.entries(res).map(([l, xs]) => `${l} ${med(xs).toFixed(2)} [${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)}]`).join('  '));
