#!/usr/bin/env node
// Where the CPU of a Mastra persistWorkflowSnapshot goes, inside the real call (issue 38 item 4,
// decision record 0049), after mastra-save-account.mjs: persists of a 4 KB snapshot over 20 runs in
// turn (mastra-storage.mjs's persist phase) on SQLite (WAL, synchronous=NORMAL), with the store's,
// the adapter's and better-sqlite3's entry points wrapped to take their CPU time (process.cpuUsage)
// exclusive of the wrapped calls inside them, so the parts add up to the call. "domain" is what no
// other wrapper covers: the domain's own code (the JSON of the snapshot, refs, the memo), the awaits
// between the parts, the garbage collector. The wrappers add some CPU of their own; read the shares.
// Usage (after npm run build):
//   node tools/bench/scripts/mastra-persist-account.mjs [persists=3000] [dist=<a copy of packages/mastra/dist>] [store-kysely dist copy]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuAccount } from './cpu-account.mjs';

const persists = Number(process.argv[2] ?? 3000);
const mod = process.argv[3] ? await import(pathToFileURL(join(resolve(process.argv[3]), 'index.js')).href) : await import('@session-checkpoint/mastra');
const { openSqliteStore } = process.argv[4] ? await import(pathToFileURL(join(resolve(process.argv[4]), 'index.js')).href) : await import('@session-checkpoint/store-kysely');
const dir = mkdtempSync(join(tmpdir(), 'mastra-persist-account-'));
const snapshot = (runId, i) => ({ runId, status: 'running', value: {}, activePaths: [0], serializedStepGraph: [], suspendedPaths: {}, waitingPaths: {}, resumeLabels: {}, timestamp: i, context: { input: { amount: i }, step1: { status: 'success', output: { text: 'x'.repeat(3500), i } } } });
const store = await openSqliteStore(join(dir, 'account.sqlite'), { durability: 'normal' });
const workflows = new mod.CheckpointWorkflowsStorage(store);
const persist = (i) => workflows.persistWorkflowSnapshot({ workflowName: 'bench', runId: `run-${i % 20}`, snapshot: snapshot(`run-${i % 20}`, i) });
for (let i = 0; i < 200; i++) await persist(i);

const { wrap, run, print, Database, statementProto } = cpuAccount();
const proto = Object.getPrototypeOf(store);
const adapterProto = Object.getPrototypeOf(store.adapter);
wrap(Database.prototype, 'exec', 'SQLite: BEGIN IMMEDIATE / COMMIT (exec)');
for (const m of ['run', 'all', 'get']) wrap(statementProto, m, 'SQLite: statements (native)');
wrap(adapterProto, 'insertIfPresent', 'store-kysely: insertIfPresent (JS)');
wrap(adapterProto, 'transaction', 'store-kysely: transaction (JS)');
wrap(proto, 'prepare', 'core: prepare (validation, canonical JSON, SHA-256)');
wrap(proto, 'insertPreparedIfPresent', 'core: insertPreparedIfPresent (JS)');
wrap(workflows, 'persistWorkflowSnapshot', 'domain (JSON of the snapshot, the memo, refs, awaits)');

const total = await run(persists, (i) => persist(200 + i));
await store.close();
rmSync(dir, { recursive: true, force: true });
print(`${process.argv[3] ?? 'this build'}, per persist`, persists, total);
