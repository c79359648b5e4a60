#!/usr/bin/env node
// Drives persistWorkflowSnapshot of a 4 KB snapshot over 20 runs in turn (mastra-storage.mjs's
// persist phase), for `node --cpu-prof` (issue 38 item 4, decision record 0049). Usage:
//   node --cpu-prof --cpu-prof-dir=DIR tools/bench/scripts/mastra-persist-profile.mjs [ours|libsql|base] [persists=3000]
// `base` runs the build in SC_MASTRA_BASELINE (a copy of packages/mastra/dist inside the repository)
// and, with SC_SK_BASELINE (a copy of packages/store-kysely/dist), opens its store with that build.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const who = process.argv[2] ?? 'ours';
const persists = Number(process.argv[3] ?? 3000);
const dir = mkdtempSync(join(tmpdir(), 'mastra-persist-profile-'));
const snapshot = (runId, i) => ({ runId, status: 'running', value: {}, activePaths: [0], serializedStepGraph: [], suspendedPaths: {}, waitingPaths: {}, resumeLabels: {}, timestamp: i, context: { input: { amount: i }, step1: { status: 'success', output: { text: 'x'.repeat(3500), i } } } });

let workflows;
let close = () => undefined;
if (who === 'libsql') {
  const { LibSQLStore } = await import('@mastra/libsql');
  const s = new LibSQLStore({ id: 'profile', url: `file:${join(dir, 'libsql.db')}` });
  await s.init();
  workflows = await s.getStore('workflows');
} else {
  const storeModule = who === 'base' && process.env.SC_SK_BASELINE ? pathToFileURL(join(resolve(process.env.SC_SK_BASELINE), 'index.js')).href : '@session-checkpoint/store-kysely';
  const { openSqliteStore } = await import(storeModule);
  const built = who === 'base' ? pathToFileURL(join(resolve(process.env.SC_MASTRA_BASELINE), 'index.js')).href : '@session-checkpoint/mastra';
  const { CheckpointWorkflowsStorage } = await import(built);
  const store = await openSqliteStore(join(dir, 'ours.sqlite'), { durability: 'normal' });
  workflows = new CheckpointWorkflowsStorage(store);
  close = () => store.close();
}
const persist = (i) => workflows.persistWorkflowSnapshot({ workflowName: 'bench', runId: `run-${i % 20}`, snapshot: snapshot(`run-${i % 20}`, i) });
for (let i = 0; i < 200; i++) await persist(i);
const cpu0 = process.cpuUsage();
for (let i = 200; i < 200 + persists; i++) await persist(i);
const used = process.cpuUsage(cpu0);
console.log(JSON.stringify({ who, persists, cpuPerPersist: (used.user + used.system) / persists }));
await close();
rmSync(dir, { recursive: true, force: true });
