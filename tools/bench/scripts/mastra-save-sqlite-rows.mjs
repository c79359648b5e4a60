#!/usr/bin/env node
// What the rows of a one-turn Mastra save cost SQLite itself (issue 38 item 4, decision record
// 0042): better-sqlite3 directly on a file with the store's v1 schema (WAL, synchronous=NORMAL),
// no store, no domain. The rows of our format (two messages, their two id rows, the change row
// holding both messages) against the floor's two message rows; plain prepared inserts between
// BEGIN IMMEDIATE and COMMIT, the store's multi-row statement (insert-many-sql.ts) alone
// (autocommit) and inside BEGIN IMMEDIATE ... COMMIT. Each includes building the rows (canonical
// JSON, SHA-256); "rows built only" is that part alone. CPU µs per call, median of 5 rounds.
//   node tools/bench/scripts/mastra-save-sqlite-rows.mjs [callsPerRound=300]
import { loadavg } from 'node:os';
import { canonicalize } from '@session-checkpoint/core';
import { insertManySql } from '../../../packages/store-kysely/dist/insert-many-sql.js';
import { msg, openRowsDb, pad, sha } from './mastra-rows-db.mjs';

const perRound = Number(process.argv[2] ?? 300);
const { db, remove } = await openRowsDb('mastra-save-sqlite-rows');
const row = (kind, payload, ref, tag) => { const j = canonicalize(payload); return ['mastra', `t:w${tag}`, kind, 'n', j, sha(j), new Date().toISOString(), ref]; };
const ours = (i, tag) => {
  const a = msg(2 * i, 'user');
  const b = msg(2 * i + 1, 'assistant');
  return [
    row('mastra.message', { messageId: a.id, value: a }, `m/w${tag}/${pad(i)}/a`, tag),
    row('mastra.message-id', { messageId: a.id, threadId: 'w', ref: `m/w${tag}/${pad(i)}/a` }, `i/w${tag}-${2 * i}`, tag),
    row('mastra.message', { messageId: b.id, value: b }, `m/w${tag}/${pad(i)}/b`, tag),
    row('mastra.message-id', { messageId: b.id, threadId: 'w', ref: `m/w${tag}/${pad(i)}/b` }, `i/w${tag}-${2 * i + 1}`, tag),
    row('mastra.change', { threadId: 'w', seq: i, op: 'save', count: 2 * i, at: new Date().toISOString(), value: [a, b] }, `c/w${tag}/${pad(i)}`, tag),
  ];
};
const floor = (i, tag) => { const a = msg(2 * i, 'user'); const b = msg(2 * i + 1, 'assistant'); return [row('mastra.message', a, `m/w${tag}/${pad(i)}/a`, tag), row('mastra.message', b, `m/w${tag}/${pad(i)}/b`, tag)]; };
const insert = db.prepare('insert into checkpoints (namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref) values (?, ?, ?, ?, ?, ?, ?, ?)');
const many = db.prepare(insertManySql('"checkpoints"', 'sqlite', 5));
const begin = db.prepare('begin immediate');
const commit = db.prepare('commit');
// A thread of 1,000 messages first, in our format.
for (let i = 0; i < 500; i++) { begin.run(); for (const r of ours(i, 'fill')) insert.run(r); commit.run(); }
const cpu = () => { const u = process.cpuUsage(); return u.user + u.system; };
const variants = {
  'rows built only (5 rows, ours)': (i) => ours(i, 'p'),
  'rows built only (2 rows, floor)': (i) => floor(i, 'p'),
  'floor: 2 message rows, BEGIN + 2 inserts + COMMIT': (i) => { const rs = floor(i, 'two'); begin.run(); for (const r of rs) insert.run(r); commit.run(); },
  'ours: 5 rows, BEGIN + 5 inserts + COMMIT': (i) => { const rs = ours(i, 'five'); begin.run(); for (const r of rs) insert.run(r); commit.run(); },
  "ours: 5 rows, the store's multi-row statement, autocommit": (i) => many.all(ours(i, 'many').flat()),
  "ours: 5 rows, BEGIN + the store's multi-row statement + COMMIT": (i) => { const rs = ours(i, 'manytx').flat(); begin.run(); many.all(rs); commit.run(); },
};
const results = {};
for (let round = 0; round < 5; round++) {
  for (const [name, f] of Object.entries(variants)) {
    const base = 100_000 * (round + 1);
    const c0 = cpu();
    for (let i = 0; i < perRound; i++) f(base + i);
    (results[name] ??= []).push((cpu() - c0) / perRound);
  }
}
remove();
console.log(`Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, 5 rounds of ${perRound}; CPU µs per call, median [min-max]`);
for (const [name, xs] of Object.entries(results)) { const s = [...xs].sort((a, b) => a - b); console.log(`${s[2].toFixed(1).padStart(7)} [${s[0].toFixed(0)}-${s[4].toFixed(0)}]  ${name}`); }
