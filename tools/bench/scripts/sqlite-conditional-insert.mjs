#!/usr/bin/env node
// CPU per statement of a Mastra persist's conditional insert on SQLite, better-sqlite3 directly
// (issue 38 item 4, decision record 0049): a 4 KB snapshot row (canonical JSON, SHA-256 built
// outside the timing) into a file with the store's v1 schema (WAL, synchronous=NORMAL), by
//   floor      the plain one-row INSERT ... VALUES of mastra-floor.mjs,
//   store      the statement of record 0041 (the required rows counted over a multi-index OR),
//   noIdLimit  the same without the id-limit check,
//   existsAnd  the required rows as one EXISTS each (what store-kysely runs since 0049),
//   returning  the 0041 statement with RETURNING "id" read by .all (the runner reads lastInsertRowid),
// each on a file of its own, in rounds (the first one a warm-up), medians of the rounds.
// Usage (after npm run build): node tools/bench/scripts/sqlite-conditional-insert.mjs
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { canonicalize } from '@session-checkpoint/core';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { rmSync } from 'node:fs';
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
const pad = (n) => String(n).padStart(16, '0');
const sha256 = (t) => createHash('sha256').update(t).digest('hex');
const snapshot = (runId, i) => ({ runId, status: 'running', value: {}, activePaths: [0], serializedStepGraph: [], suspendedPaths: {}, waitingPaths: {}, resumeLabels: {}, timestamp: i, context: { input: { amount: i }, step1: { status: 'success', output: { text: 'x'.repeat(3500), i } } } });
const COLUMNS = '(namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref)';
const base = `insert into "checkpoints" ("namespace", "session_id", "kind", "name", "payload_json", "payload_sha256", "created_at", "source_ref") select cast(? as text) as "namespace", cast(? as text) as "session_id", cast(? as text) as "kind", cast(? as text) as "name", cast(? as text) as "payload_json", cast(? as text) as "payload_sha256", cast(? as text) as "created_at", cast(? as text) as "source_ref" where not exists (select 1 as "one" from "checkpoints" where "namespace" = ? and "source_ref" = ?) and max(coalesce((select max("id") from "checkpoints"), 0), coalesce((select "seq" from "sqlite_sequence" where "name" = 'checkpoints'), 0)) < 9007199254740991 and (select count(*) from (select 1 from "checkpoints" where "namespace" = ? and (("source_ref" = ? and "payload_sha256" = ?) or ("source_ref" = ?))) as "present") = ? on conflict do nothing`;
const variants = {
  floor: [`insert into checkpoints ${COLUMNS} values (?, ?, ?, ?, ?, ?, ?, ?)`, (r) => r],
  store: [base, (r, ns, runRef, sha, prev) => [...r, ns, r[7], ns, runRef, sha, prev, 2]],
  noIdLimit: [base.replace(` and max(coalesce((select max("id") from "checkpoints"), 0), coalesce((select "seq" from "sqlite_sequence" where "name" = 'checkpoints'), 0)) < 9007199254740991`, ''), (r, ns, runRef, sha, prev) => [...r, ns, r[7], ns, runRef, sha, prev, 2]],
  existsAnd: [base.replace(`(select count(*) from (select 1 from "checkpoints" where "namespace" = ? and (("source_ref" = ? and "payload_sha256" = ?) or ("source_ref" = ?))) as "present") = ?`, `exists (select 1 from "checkpoints" where "namespace" = ? and "source_ref" = ? and "payload_sha256" = ?) and exists (select 1 from "checkpoints" where "namespace" = ? and "source_ref" = ?)`), (r, ns, runRef, sha, prev) => [...r, ns, r[7], ns, runRef, sha, ns, prev]],
  returning: [base + ' returning "id"', (r, ns, runRef, sha, prev) => [...r, ns, r[7], ns, runRef, sha, prev, 2]],
};
const dbs = {};
for (const name of Object.keys(variants)) {
  const path = `/tmp/sqlite-conditional-insert-${name}.sqlite`;
  for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
  (await openSqliteStore(path, { durability: 'normal' })).close();
  const db = new Database(path);
  db.pragma('journal_mode = WAL'); db.pragma('synchronous = NORMAL');
  db.prepare(`insert into checkpoints ${COLUMNS} values (?, ?, ?, ?, ?, ?, ?, ?)`).run('mastra', 'run', 'mastra.run', 'r', '{}', sha256('{}'), new Date().toISOString(), 'r/bench');
  for (let k = 0; k < 20; k++) db.prepare(`insert into checkpoints ${COLUMNS} values (?, ?, ?, ?, ?, ?, ?, ?)`).run('mastra', 'run', 'mastra.snapshot', 's', '{}', 'x', new Date().toISOString(), `s/bench/run-${k}/${pad(0)}`);
  const st = db.prepare(variants[name][0]);
  dbs[name] = { st, next: 0, cpu: [], args: variants[name][1], ret: name === 'returning' };
}
const cpuNow = () => { const u = process.cpuUsage(); return u.user + u.system; };
const rowOf = (i) => { const runId = `run-${i % 20}`; const j = canonicalize({ workflowName: 'bench', runId, seq: i, updatedAt: new Date().toISOString(), value: snapshot(runId, i) }); return ['mastra', runId, 'mastra.snapshot', `snapshot ${i}`, j, sha256(j), new Date().toISOString(), `s/bench/${runId}/${pad(Math.floor(i / 20) + 1)}`]; };
const N = 300;
for (let round = 0; round < 13; round++) {
  for (const [name, d] of Object.entries(dbs)) {
    const rows = []; for (let k = 0; k < N; k++) { const i = d.next++; const r = rowOf(i); rows.push(d.args(r, 'mastra', 'r/bench', sha256('{}'), `s/bench/run-${i % 20}/${pad(Math.floor(i / 20))}`)); }
    const c0 = cpuNow();
    for (const a of rows) { const res = d.ret ? d.st.all(a) : d.st.run(a); if ((d.ret ? res.length : res.changes) !== 1) throw new Error(name + ' refused'); }
    if (round > 0) d.cpu.push((cpuNow() - c0) / N);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
for (const [name, d] of Object.entries(dbs)) console.log(name.padEnd(10), median(d.cpu).toFixed(1), d.cpu.map((x) => x.toFixed(0)).join(' '));
