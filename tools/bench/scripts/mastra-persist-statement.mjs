#!/usr/bin/env node
// The SQLite statement of a Mastra persist between the persist's own JavaScript (issue 38 item 4,
// decision record 0056). sqlite-conditional-insert.mjs times statements back to back, rows built
// beforehand; a persist runs one statement between canonical JSON, SHA-256 and its layers' code.
// Here each call builds the snapshot row (canonical JSON by core's canonicaliser, SHA-256) and
// runs one statement with better-sqlite3 directly, on a file of the store's v1 schema (WAL,
// synchronous=NORMAL), by
//   floor   the plain one-row INSERT ... VALUES of mastra-floor.mjs,
//   store   the conditional insert the store runs for a persist (its SQL text taken from a real
//           persist of this build: the required run record and previous snapshot, the taken-ref
//           probe, the id limit),
// and with SC_PERSIST_STATEMENT_PARTS=1 the store's statement without each of its conditions,
// each on a file of its own, rounds rotating (the first a warm-up), CPU µs per call (median of
// the rounds), and the same with the rows built before the timing (the statement alone).
// Usage (after npm run build): node tools/bench/scripts/mastra-persist-statement.mjs [rounds=9] [calls=1000]
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalize } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { CheckpointWorkflowsStorage } from '@session-checkpoint/mastra';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
const rounds = Number(process.argv[2] ?? 9);
const calls = Number(process.argv[3] ?? 1000);
const dir = mkdtempSync(join(tmpdir(), 'mastra-persist-statement-'));
const sha256 = (t) => createHash('sha256').update(t).digest('hex');
const pad = (n) => String(n).padStart(16, '0');
const snapshot = (runId, i) => ({ runId, status: 'running', value: {}, activePaths: [0], serializedStepGraph: [], suspendedPaths: {}, waitingPaths: {}, resumeLabels: {}, timestamp: i, context: { input: { amount: i }, step1: { status: 'success', output: { text: 'x'.repeat(3500), i } } } });
const COLUMNS = '(namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref)';

// The store's SQL text of a persist's conditional insert, and its parameters, from a real persist.
const statementProto = Object.getPrototypeOf(new Database(':memory:').prepare('select 1'));
const run = statementProto.run;
let captured;
statementProto.run = function (...args) {
  if (this.source.includes('exists (select 1 from "checkpoints" where "namespace" = ? and "source_ref" = ? and "payload_sha256" = ?)')) captured = { sql: this.source, parameters: args[0] };
  return run.apply(this, args);
};
{
  const store = await openSqliteStore(join(dir, 'capture.sqlite'), { durability: 'normal' });
  const workflows = new CheckpointWorkflowsStorage(store);
  for (let i = 0; i < 3; i++) await workflows.persistWorkflowSnapshot({ workflowName: 'bench', runId: 'run-0', snapshot: snapshot('run-0', i) });
  await store.close();
}
statementProto.run = run;
if (captured === undefined) throw new Error('no conditional insert captured');
if (process.env.SC_SHOW_SQL) console.log(captured.sql);
// Parameters: the 8 inserted columns, then the namespace and ref of the taken-ref probe, then per
// required row the namespace, ref (and SHA-256): checked against the captured values.
const tail = captured.parameters.slice(8);
if (tail.length !== 7 || tail[0] !== 'mastra' || tail[2] !== 'mastra' || tail[5] !== 'mastra') throw new Error(`unexpected parameters: ${JSON.stringify(tail)}`);

const recordSha = sha256('{}');
// The store's statement without one of its conditions, to price each (measurement only).
const without = (part) => {
  if (!captured.sql.includes(part)) throw new Error(`not in the store's SQL: ${part}`);
  return captured.sql.replace(part, '');
};
const TAKEN = 'not exists (select 1 as "one" from "checkpoints" where "namespace" = ? and "source_ref" = ?) and ';
const ID_LIMIT = ` and max(coalesce((select max("id") from "checkpoints"), 0), coalesce((select "seq" from "sqlite_sequence" where "name" = 'checkpoints'), 0)) < 9007199254740991`;
const REQUIRED = ' and exists (select 1 from "checkpoints" where "namespace" = ? and "source_ref" = ? and "payload_sha256" = ?) and exists (select 1 from "checkpoints" where "namespace" = ? and "source_ref" = ?)';
const required = (runId, seq) => ['mastra', `w/bench/${runId}`, recordSha, 'mastra', `s/bench/${runId}/${pad(seq - 1)}`];
const variants = {
  floor: [`insert into checkpoints ${COLUMNS} values (?, ?, ?, ?, ?, ?, ?, ?)`, (r) => r],
  store: [captured.sql, (r, runId, seq) => [...r, 'mastra', r[7], ...required(runId, seq)]],
  ...(process.env.SC_PERSIST_STATEMENT_PARTS
    ? {
        noTaken: [without(TAKEN).replace('where ' + ID_LIMIT.slice(5), 'where ' + ID_LIMIT.slice(5)), (r, runId, seq) => [...r, ...required(runId, seq)]],
        noIdLimit: [without(ID_LIMIT), (r, runId, seq) => [...r, 'mastra', r[7], ...required(runId, seq)]],
        noRequired: [without(REQUIRED), (r) => [...r, 'mastra', r[7]]],
      }
    : {}),
};
const rowOf = (i) => {
  const runId = `run-${i % 20}`;
  const seq = Math.floor(i / 20) + 1;
  const json = canonicalize({ workflowName: 'bench', runId, seq, updatedAt: new Date().toISOString(), value: snapshot(runId, i) });
  return [['mastra', runId, 'mastra.snapshot', `snapshot ${seq}`, json, sha256(json), new Date().toISOString(), `s/bench/${runId}/${pad(seq)}`], runId, seq];
};
const dbs = {};
for (const name of Object.keys(variants)) {
  for (const mode of ['built', 'inline']) {
    const path = join(dir, `${name}-${mode}.sqlite`);
    (await openSqliteStore(path, { durability: 'normal' })).close();
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    const insert = db.prepare(`insert into checkpoints ${COLUMNS} values (?, ?, ?, ?, ?, ?, ?, ?)`);
    for (let k = 0; k < 20; k++) {
      insert.run('mastra', `run-${k}`, 'mastra.run', 'bench', '{}', recordSha, new Date().toISOString(), `w/bench/run-${k}`);
      insert.run('mastra', `run-${k}`, 'mastra.snapshot', 's', '{}', 'x', new Date().toISOString(), `s/bench/run-${k}/${pad(0)}`);
    }
    dbs[`${name} ${mode}`] = { st: db.prepare(variants[name][0]), args: variants[name][1], inline: mode === 'inline', next: 0, cpu: [] };
  }
}
const cpuNow = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const entries = Object.entries(dbs);
for (let round = 0; round < rounds + 1; round++) {
  for (let k = 0; k < entries.length; k++) {
    const [name, d] = entries[(k + round) % entries.length];
    const once = (i) => {
      const [r, runId, seq] = rowOf(i);
      return d.args(r, runId, seq);
    };
    const built = d.inline ? undefined : Array.from({ length: calls }, (_, k2) => once(d.next + k2));
    const c0 = cpuNow();
    for (let k2 = 0; k2 < calls; k2++) {
      const a = built === undefined ? once(d.next + k2) : built[k2];
      if (d.st.run(a).changes !== 1) throw new Error(`${name} refused`);
    }
    if (round > 0) d.cpu.push((cpuNow() - c0) / calls);
    d.next += calls;
  }
}
rmSync(dir, { recursive: true, force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
console.log(`CPU µs per call, median of ${rounds} rounds of ${calls} ("built": rows built before the timing, the statement alone; "inline": each row built in the call, canonical JSON and SHA-256 between statements)`);
for (const [name, d] of entries) console.log(`  ${name.padEnd(14)} ${median(d.cpu).toFixed(1).padStart(6)}   ${d.cpu.map((x) => x.toFixed(0)).join(' ')}`);
