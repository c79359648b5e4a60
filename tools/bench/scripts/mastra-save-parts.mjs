#!/usr/bin/env node
// The µs account of a one-turn Mastra saveMessages on SQLite (issue 38 item 4, decision record
// 0042): the whole call, and each part it is made of, timed alone on the same store in one
// process (CPU of this process per call, median of rounds), beside @mastra/libsql's call and the
// floor of mastra-floor.mjs. Parts are timed apart, so their sum only approximates the call.
//   node tools/bench/scripts/mastra-save-parts.mjs [rounds=5] [callsPerRound=500]
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { canonicalize } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { CheckpointMemoryStorage } from '@session-checkpoint/mastra';
import { MessageList } from '@mastra/core/agent/message-list';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
const rounds = Number(process.argv[2] ?? 5);
const perRound = Number(process.argv[3] ?? 500);
const dir = mkdtempSync(join(tmpdir(), 'mastra-save-parts-'));
const text = (i, words) => `${words} ${i}: `.padEnd(560, 'lorem ipsum dolor sit amet ');
const message = (thread, i, role) => ({ id: `${thread}-${i}`, threadId: thread, resourceId: 'user-1', role, type: 'v2', createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000), content: { format: 2, parts: [{ type: 'text', text: text(i, role) }] } });
const turn = (thread, i) => [message(thread, 2 * i, 'user'), message(thread, 2 * i + 1, 'assistant')];
const pad = (n) => String(n).padStart(16, '0');
const sha256 = (t) => createHash('sha256').update(t).digest('hex');
const cpuNow = () => { const u = process.cpuUsage(); return u.user + u.system; };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function filled(module, name) {
  const store = await openSqliteStore(join(dir, name), { durability: 'normal' });
  const memory = new module.CheckpointMemoryStorage(store);
  const now = new Date();
  await memory.saveThread({ thread: { id: 'writes', resourceId: 'user-1', title: 'writes', createdAt: now, updatedAt: now } });
  for (let at = 0; at < 1000; at += 50) await memory.saveMessages({ messages: Array.from({ length: 50 }, (_, k) => message('writes', at + k, (at + k) % 2 ? 'assistant' : 'user')) });
  return { store, memory };
}

const contenders = new Map();
const add = (name, op) => contenders.set(name, { op, cpu: [], next: 1000 });
const ours = await filled({ CheckpointMemoryStorage }, 'ours.sqlite');
add('ours: saveMessages (one turn)', (i) => ours.memory.saveMessages({ messages: turn('writes', i) }));
if (process.env.SC_MASTRA_BASELINE) {
  const base = await filled(await import(pathToFileURL(join(resolve(process.env.SC_MASTRA_BASELINE), 'index.js')).href), 'base.sqlite');
  add('baseline: saveMessages (one turn)', (i) => base.memory.saveMessages({ messages: turn('writes', i) }));
}
{
  const { LibSQLStore } = await import('@mastra/libsql');
  const s = new LibSQLStore({ id: 'parts', url: `file:${join(dir, 'libsql.db')}` });
  await s.init();
  const memory = await s.getStore('memory');
  await memory.saveThread({ thread: { id: 'writes', resourceId: 'user-1', title: 'writes', createdAt: new Date(), updatedAt: new Date() } });
  for (let at = 0; at < 1000; at += 50) await memory.saveMessages({ messages: Array.from({ length: 50 }, (_, k) => message('writes', at + k, (at + k) % 2 ? 'assistant' : 'user')) });
  add('@mastra/libsql: saveMessages (one turn)', (i) => memory.saveMessages({ messages: turn('writes', i) }));
}
// The floor (mastra-floor.mjs): canonical JSON, SHA-256, BEGIN IMMEDIATE + 2 inserts + COMMIT.
{
  const path = join(dir, 'floor.sqlite');
  (await openSqliteStore(path, { durability: 'normal' })).close();
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const insert = db.prepare('insert into checkpoints (namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref) values (?, ?, ?, ?, ?, ?, ?, ?)');
  const begin = db.prepare('begin immediate');
  const commit = db.prepare('commit');
  const row = (m, seq) => { const j = canonicalize({ ...m, createdAt: m.createdAt.toISOString() }); return ['mastra', m.threadId, 'mastra.message', `message ${m.id}`, j, sha256(j), new Date().toISOString(), `m/${m.threadId}/${pad(m.createdAt.getTime())}/${pad(seq)}`]; };
  add('floor: BEGIN + 2 verified inserts + COMMIT', (i) => { const [a, b] = turn('floor', i); begin.run(); insert.run(...row(a, 2 * i)); insert.run(...row(b, 2 * i + 1)); commit.run(); });
  add('floor part: canonical JSON + SHA-256 of 2 messages', (i) => { const [a, b] = turn('floor', i); row(a, 0); row(b, 1); });
  add('floor part: BEGIN IMMEDIATE + COMMIT (prepared), nothing written', () => { begin.run(); commit.run(); });
  add('floor part: BEGIN IMMEDIATE + COMMIT (exec), nothing written', () => { db.exec('BEGIN IMMEDIATE'); db.exec('COMMIT'); });
}
// Parts of ours, on our store (the thread 'writes' of 1,000+ messages).
{
  const { store, memory } = ours;
  const ns = 'mastra';
  add('part: the turn built (the messages of the call, common)', (i) => turn('writes', i));
  add('part: MessageList on the return (common: libsql does it)', (i) => new MessageList().add(turn('writes', i), 'memory').get.all.db());
  add('part: JSON round trip of the two messages (jsonOf)', (i) => turn('writes', i).map((m) => JSON.parse(JSON.stringify(m))));
  add('part: store.transaction, nothing in it', () => store.transaction(async () => undefined));
  add('part: read, id rows of 2 new ids (findBySourceRefs)', (i) => store.findBySourceRefs(ns, [`i/writes-x${i}`, `i/writes-y${i}`]));
  add('part: read, newest change row (verified, parsed)', async () => { const [r] = await store.listBySourceRefPrefix({ namespace: ns, prefix: 'c/writes/', descending: true, limit: 1 }); return r.payload.count; });
  const prepared = (i) => {
    const [a, b] = turn('writes', i).map((m) => ({ ...m, createdAt: m.createdAt.toISOString() }));
    const rows = [];
    for (const m of [a, b]) {
      rows.push(store.prepare({ namespace: ns, sessionId: 't:writes', kind: 'mastra.message', name: m.role, payload: { messageId: m.id, value: m }, sourceRef: `m/writes/x${pad(i)}/${m.id}` }));
      rows.push(store.prepare({ namespace: ns, sessionId: 't:writes', kind: 'mastra.message-id', name: 'message id', payload: { messageId: m.id, threadId: 'writes', ref: `m/x/${i}` }, sourceRef: `i/x${i}/${m.id}` }));
    }
    rows.push(store.prepare({ namespace: ns, sessionId: 't:writes', kind: 'mastra.change', name: 'save', payload: { threadId: 'writes', seq: i, op: 'save', count: i, at: new Date().toISOString(), value: [a, b] }, sourceRef: `c/x/${pad(i)}` }));
    return rows;
  };
  add('part: prepare the 5 rows (canonical JSON, SHA-256)', (i) => prepared(i));
  let k = 0;
  const ready = [];
  add('part: insertPreparedMany of 5 prepared rows (autocommit)', async () => { await store.insertPreparedMany(ready.length ? ready.pop() : prepared(1e6 + k++)); });
  add('part: insertPreparedMany of 5 prepared rows in store.transaction', async () => { const rows = ready.length ? ready.pop() : prepared(1e6 + k++); await store.transaction((tx) => tx.insertPreparedMany(rows)); });
  add('part: 5 insertPrepared in store.transaction', async () => { const rows = ready.length ? ready.pop() : prepared(1e6 + k++); await store.transaction(async (tx) => { for (const r of rows) await tx.insertPrepared(r); }); });
  contenders.get('part: 5 insertPrepared in store.transaction').before = (n) => { for (let j = 0; j < n; j++) ready.push(prepared(1e6 + k++)); };
  contenders.get('part: insertPreparedMany of 5 prepared rows (autocommit)').before = (n) => { for (let j = 0; j < n; j++) ready.push(prepared(1e6 + k++)); };
  contenders.get('part: insertPreparedMany of 5 prepared rows in store.transaction').before = (n) => { for (let j = 0; j < n; j++) ready.push(prepared(1e6 + k++)); };
  void memory;
}

async function time(c, count) {
  c.before?.(count);
  const c0 = cpuNow();
  for (let i = 0; i < count; i++) await c.op(c.next + i);
  c.next += count;
  return (cpuNow() - c0) / count;
}
const names = [...contenders.keys()];
for (const c of contenders.values()) await time(c, 50);
for (let r = 0; r < rounds; r++) for (let j = 0; j < names.length; j++) { const c = contenders.get(names[(j + r) % names.length]); c.cpu.push(await time(c, perRound)); }
rmSync(dir, { recursive: true, force: true });
console.log(`Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, ${rounds} rounds of ${perRound} calls; CPU µs per call, median [min-max]`);
for (const n of names) { const xs = contenders.get(n).cpu; console.log(`${median(xs).toFixed(1).padStart(8)} [${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}]  ${n}`); }
