#!/usr/bin/env node
/**
 * The floor of a verified Mastra write (issue 38 item 4; docs/decisions/0041-mastra-persist-and-floor.md):
 * in one run on this machine, the least work the rules demand of
 *
 * - a workflow snapshot persist: every snapshot its own verified row, so the payload's canonical
 *   JSON (@session-checkpoint/core's canonicaliser), its SHA-256, and one insert of that row into
 *   a table with the store's v1 schema and indexes (the unique (namespace, source_ref) index and
 *   the two created_at indexes), autocommit;
 * - a message save of one turn (a user and an assistant message of about 600 bytes): each message
 *   a verified row, so two canonical JSON texts, two SHA-256 and two inserts in one transaction
 *   (BEGIN IMMEDIATE, two inserts, COMMIT; and one two-row INSERT, autocommit, whichever is less);
 *
 * - a page of a thread with its total on PostgreSQL (page 12 of 40 of a 1,000-message thread,
 *   docs/decisions/0048-mastra-page-one-statement.md): every row read verified, so one raw pg
 *   statement reading the 40 rows after an OFFSET of the thread's prefix range with a count
 *   beside them, and per row the payload's JSON.parse, its canonical JSON re-hashed (SHA-256) and
 *   compared with the stored hash;
 *
 * written by better-sqlite3 directly (WAL, synchronous=NORMAL, as @mastra/libsql runs) and by pg
 * directly, next to @mastra/libsql's and @mastra/pg's own calls and to this repository's domains
 * as built (and, with SC_MASTRA_BASELINE=<a copy of packages/mastra/dist inside the repository>,
 * that build too, for a before/after in the same run). Everything in one process, in rounds that
 * rotate the order; CPU time of this process per call (process.cpuUsage), medians of the rounds;
 * on PostgreSQL the server's CPU is not counted, so wall time is printed beside it.
 *
 * After `npm run build`, on Node 22.13+ (better-sqlite3 built for that Node):
 *   SC_PG_URL=postgres://postgres@127.0.0.1:5432/test node tools/bench/scripts/mastra-floor.mjs [rounds=5] [callsPerRound=300]
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { canonicalize } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import { CheckpointMemoryStorage, CheckpointWorkflowsStorage } from '@session-checkpoint/mastra';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
const pg = require('pg');

const rounds = Number(process.argv[2] ?? 5);
const perRound = Number(process.argv[3] ?? 300);
const url = process.env.SC_PG_URL;
const baseline = process.env.SC_MASTRA_BASELINE ? await import(pathToFileURL(join(resolve(process.env.SC_MASTRA_BASELINE), 'index.js')).href) : undefined;
const dir = mkdtempSync(join(tmpdir(), 'mastra-floor-'));

// The shapes of tools/bench/scripts/mastra-storage.mjs: a 4 KB snapshot over 20 runs; a turn of two 560-character messages.
const snapshot = (runId, i) => ({ runId, status: 'running', value: {}, activePaths: [0], serializedStepGraph: [], suspendedPaths: {}, waitingPaths: {}, resumeLabels: {}, timestamp: i, context: { input: { amount: i }, step1: { status: 'success', output: { text: 'x'.repeat(3500), i } } } });
const text = (i, words) => `${words} ${i}: `.padEnd(560, 'lorem ipsum dolor sit amet ');
const message = (thread, i, role) => ({ id: `${thread}-${i}`, threadId: thread, resourceId: 'user-1', role, type: 'v2', createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000), content: { format: 2, parts: [{ type: 'text', text: text(i, role) }] } });
const pad = (n) => String(n).padStart(16, '0');
const sha256 = (t) => createHash('sha256').update(t).digest('hex');

/** The columns of one verified row: namespace, session, kind, name, canonical payload, its SHA-256, time, ref. */
function snapshotRow(i) {
  const runId = `run-${i % 20}`;
  const payloadJson = canonicalize({ workflowName: 'bench', runId, seq: i, updatedAt: new Date().toISOString(), value: snapshot(runId, i) });
  return ['mastra', runId, 'mastra.snapshot', `snapshot ${i}`, payloadJson, sha256(payloadJson), new Date().toISOString(), `s/bench/${runId}/${pad(i)}`];
}
function messageRow(m, seq) {
  const payloadJson = canonicalize({ ...m, createdAt: m.createdAt.toISOString() });
  return ['mastra', m.threadId, 'mastra.message', `message ${m.id}`, payloadJson, sha256(payloadJson), new Date().toISOString(), `m/${m.threadId}/${pad(m.createdAt.getTime())}/${pad(seq)}`];
}
const turn = (thread, i) => [message(thread, 2 * i, 'user'), message(thread, 2 * i + 1, 'assistant')];
const COLUMNS = '(namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref)';

const cpuNow = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
async function time(count, op, from) {
  const c0 = cpuNow();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await op(from + i);
  return { cpu: (cpuNow() - c0) / count, wall: Number(process.hrtime.bigint() - t0) / 1e3 / count };
}

const contenders = new Map();
const add = (name, op) => contenders.set(name, { op, cpu: [], wall: [], next: 1 });
const cleanups = [];

/** Our domains over a store, as `mastra-storage.mjs` drives them. */
async function ours(label, module, store) {
  const memory = new module.CheckpointMemoryStorage(store);
  const workflows = new module.CheckpointWorkflowsStorage(store);
  await memory.saveThread({ thread: { id: 'writes', resourceId: 'user-1', title: 'writes', createdAt: new Date(), updatedAt: new Date() } });
  add(`${label}: persistWorkflowSnapshot`, (i) => workflows.persistWorkflowSnapshot({ workflowName: 'bench', runId: `run-${i % 20}`, snapshot: snapshot(`run-${i % 20}`, i) }));
  add(`${label}: saveMessages (one turn)`, (i) => memory.saveMessages({ messages: turn('writes', i) }));
  if (label.endsWith('PostgreSQL')) await pageOf(label, memory);
}

/** Fills thread `big` with 1,000 messages (50 a save, as mastra-storage.mjs does) and adds its page 12 of 40 as a contender. */
async function pageOf(label, memory) {
  await memory.saveThread({ thread: { id: 'big', resourceId: 'user-1', title: 'big', createdAt: new Date(), updatedAt: new Date() } });
  for (let at = 0; at < 1000; at += 50) await memory.saveMessages({ messages: Array.from({ length: 50 }, (_, k) => message('big', at + k, (at + k) % 2 ? 'assistant' : 'user')) });
  add(`${label}: listMessages page 12 of 40`, async () => {
    const r = await memory.listMessages({ threadId: 'big', perPage: 40, page: 12 });
    if (r.messages.length !== 40 || r.messages[0].id !== 'big-480' || r.total !== 1000) throw new Error(`${label}: page 12 returned the wrong messages`);
  });
}

// SQLite: the floor on a file with the store's schema, written by raw statements.
{
  const path = join(dir, 'floor.sqlite');
  (await openSqliteStore(path, { durability: 'normal' })).close();
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  cleanups.push(() => db.close());
  const insert = db.prepare(`insert into checkpoints ${COLUMNS} values (?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertTwo = db.prepare(`insert into checkpoints ${COLUMNS} values (?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?)`);
  const begin = db.prepare('begin immediate');
  const commit = db.prepare('commit');
  add('SQLite floor: persist (canonical JSON, SHA-256, one insert)', (i) => insert.run(...snapshotRow(i)));
  add('SQLite floor: message save, BEGIN + 2 inserts + COMMIT', (i) => {
    const [a, b] = turn('floor-tx', i);
    begin.run();
    insert.run(...messageRow(a, 2 * i));
    insert.run(...messageRow(b, 2 * i + 1));
    commit.run();
  });
  add('SQLite floor: message save, one 2-row insert', (i) => {
    const [a, b] = turn('floor-one', i);
    insertTwo.run(...messageRow(a, 2 * i), ...messageRow(b, 2 * i + 1));
  });
  const store = await openSqliteStore(join(dir, 'ours.sqlite'), { durability: 'normal' });
  cleanups.push(() => store.close());
  await ours('ours SQLite', { CheckpointMemoryStorage, CheckpointWorkflowsStorage }, store);
  if (baseline) {
    const before = await openSqliteStore(join(dir, 'baseline.sqlite'), { durability: 'normal' });
    cleanups.push(() => before.close());
    await ours('baseline SQLite', baseline, before);
  }
  const { LibSQLStore } = await import('@mastra/libsql');
  const libsql = new LibSQLStore({ id: 'floor', url: `file:${join(dir, 'libsql.db')}` });
  await libsql.init();
  const memory = await libsql.getStore('memory');
  const workflows = await libsql.getStore('workflows');
  await memory.saveThread({ thread: { id: 'writes', resourceId: 'user-1', title: 'writes', createdAt: new Date(), updatedAt: new Date() } });
  add('@mastra/libsql: persistWorkflowSnapshot', (i) => workflows.persistWorkflowSnapshot({ workflowName: 'bench', runId: `run-${i % 20}`, snapshot: snapshot(`run-${i % 20}`, i) }));
  add('@mastra/libsql: saveMessages (one turn)', (i) => memory.saveMessages({ messages: turn('writes', i) }));
}

if (url) {
  const schema = `mastra_floor_${process.pid}`;
  const schemas = [schema, `${schema}_ours`, `${schema}_base`, `${schema}_mastra`];
  cleanups.push(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    for (const s of schemas) await admin.query(`drop schema if exists "${s}" cascade`);
    await admin.end();
  });
  await (await openPostgresStore(url, { schema })).close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  cleanups.push(() => client.end());
  const t = `"${schema}".checkpoints`;
  const one = `insert into ${t} ${COLUMNS} values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`;
  const two = `insert into ${t} ${COLUMNS} values ($1, $2, $3, $4, $5, $6, $7, $8), ($9, $10, $11, $12, $13, $14, $15, $16) returning id`;
  add('PostgreSQL floor: persist (canonical JSON, SHA-256, one insert)', (i) => client.query(one, snapshotRow(i)));
  add('PostgreSQL floor: message save, BEGIN + 2 inserts + COMMIT', async (i) => {
    const [a, b] = turn('floor-tx', i);
    await client.query('begin');
    await client.query(one, messageRow(a, 2 * i));
    await client.query(one, messageRow(b, 2 * i + 1));
    await client.query('commit');
  });
  add('PostgreSQL floor: message save, one 2-row insert', (i) => {
    const [a, b] = turn('floor-one', i);
    return client.query(two, [...messageRow(a, 2 * i), ...messageRow(b, 2 * i + 1)]);
  });
  const store = await openPostgresStore(url, { schema: `${schema}_ours` });
  cleanups.push(() => store.close());
  await ours('ours PostgreSQL', { CheckpointMemoryStorage, CheckpointWorkflowsStorage }, store);
  // The page floor reads the rows our domain wrote: one statement, the 40 rows after the offset and
  // the range's count (a scalar subquery, as @mastra/pg folds its COUNT(*) into its page).
  const range = `from "${schema}_ours".checkpoints where namespace = $1 and source_ref >= $2 and source_ref < $3`;
  const pageSql = `select payload_json, payload_sha256, source_ref, (select count(*) ${range}) as total ${range} order by source_ref limit 40 offset $4`;
  add('PostgreSQL floor: page (1 statement, verify + parse 40 rows)', async () => {
    const { rows } = await client.query(pageSql, ['mastra', 'm/big/', 'm/big0', 480]);
    const out = [];
    for (const row of rows) {
      const value = JSON.parse(row.payload_json);
      if (sha256(canonicalize(value)) !== row.payload_sha256) throw new Error(`row ${row.source_ref} fails its hash`);
      out.push(value);
    }
    if (out.length !== 40 || out[0].value?.id !== 'big-480' || Number(rows[0].total) !== 1000) throw new Error('floor page returned the wrong rows');
  });
  if (baseline) {
    const before = await openPostgresStore(url, { schema: `${schema}_base` });
    cleanups.push(() => before.close());
    await ours('baseline PostgreSQL', baseline, before);
  }
  const { PostgresStore } = await import('@mastra/pg');
  const mastraPg = new PostgresStore({ id: 'floor', connectionString: url, schemaName: `${schema}_mastra` });
  await mastraPg.init();
  cleanups.push(() => mastraPg.close?.());
  const memory = await mastraPg.getStore('memory');
  const workflows = await mastraPg.getStore('workflows');
  await memory.saveThread({ thread: { id: 'writes', resourceId: 'user-1', title: 'writes', createdAt: new Date(), updatedAt: new Date() } });
  add('@mastra/pg: persistWorkflowSnapshot', (i) => workflows.persistWorkflowSnapshot({ workflowName: 'bench', runId: `run-${i % 20}`, snapshot: snapshot(`run-${i % 20}`, i) }));
  add('@mastra/pg: saveMessages (one turn)', (i) => memory.saveMessages({ messages: turn('writes', i) }));
  await pageOf('@mastra/pg', memory);
}

const names = [...contenders.keys()];
// A warm-up, then rounds in rotating order; each contender numbers its calls on (new rows every call).
for (const c of contenders.values()) {
  await time(20, c.op, c.next);
  c.next += 20;
}
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < names.length; k++) {
    const c = contenders.get(names[(k + r) % names.length]);
    const { cpu, wall } = await time(perRound, c.op, c.next);
    c.next += perRound;
    c.cpu.push(cpu);
    c.wall.push(wall);
  }
}
for (const f of cleanups.reverse()) await f();
rmSync(dir, { recursive: true, force: true });

const fmt = (x) => x.toFixed(1).padStart(8);
console.log(`Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, ${rounds} rounds of ${perRound} calls`);
console.log(`${'µs per call (median of rounds)'.padEnd(66)}     CPU     wall`);
for (const name of names) console.log(`${name.padEnd(66)}${fmt(median(contenders.get(name).cpu))} ${fmt(median(contenders.get(name).wall))}`);
const of = (name, metric = 'cpu') => median(contenders.get(name)[metric]);
const has = (name) => contenders.has(name);
console.log('\nthroughput against theirs (theirs / time; above 1 is faster), CPU (wall):');
const line = (what, theirs, floorNames, builtNames, metrics) => {
  if (!has(theirs)) return;
  const floor = (m) => Math.min(...floorNames.filter(has).map((n) => of(n, m)));
  const show = (m) => `floor ${(of(theirs, m) / floor(m)).toFixed(2)}x${builtNames.filter(has).map((n) => `, ${n.split(':')[0]} ${(of(theirs, m) / of(n, m)).toFixed(2)}x`).join('')}`;
  console.log(`  ${what}: ${metrics.map((m) => `${m} ${show(m)}`).join('; ')}`);
};
line('SQLite persist vs @mastra/libsql', '@mastra/libsql: persistWorkflowSnapshot', ['SQLite floor: persist (canonical JSON, SHA-256, one insert)'], ['ours SQLite: persistWorkflowSnapshot', 'baseline SQLite: persistWorkflowSnapshot'], ['cpu', 'wall']);
line('SQLite message save vs @mastra/libsql', '@mastra/libsql: saveMessages (one turn)', ['SQLite floor: message save, BEGIN + 2 inserts + COMMIT', 'SQLite floor: message save, one 2-row insert'], ['ours SQLite: saveMessages (one turn)', 'baseline SQLite: saveMessages (one turn)'], ['cpu', 'wall']);
line('PostgreSQL persist vs @mastra/pg', '@mastra/pg: persistWorkflowSnapshot', ['PostgreSQL floor: persist (canonical JSON, SHA-256, one insert)'], ['ours PostgreSQL: persistWorkflowSnapshot', 'baseline PostgreSQL: persistWorkflowSnapshot'], ['cpu', 'wall']);
line('PostgreSQL page vs @mastra/pg', '@mastra/pg: listMessages page 12 of 40', ['PostgreSQL floor: page (1 statement, verify + parse 40 rows)'], ['ours PostgreSQL: listMessages page 12 of 40', 'baseline PostgreSQL: listMessages page 12 of 40'], ['cpu', 'wall']);
line('PostgreSQL message save vs @mastra/pg', '@mastra/pg: saveMessages (one turn)', ['PostgreSQL floor: message save, BEGIN + 2 inserts + COMMIT', 'PostgreSQL floor: message save, one 2-row insert'], ['ours PostgreSQL: saveMessages (one turn)', 'baseline PostgreSQL: saveMessages (one turn)'], ['cpu', 'wall']);
