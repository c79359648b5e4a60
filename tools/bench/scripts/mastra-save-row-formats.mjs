#!/usr/bin/env node
// What a one-turn Mastra save's rows would cost SQLite in other row formats (issue 38 item 4,
// decision record 0053): better-sqlite3 directly on a file with the store's schema (WAL,
// synchronous=NORMAL), no store, no domain; each format's rows built (canonical JSON, SHA-256) and
// written by the store's conditional multi-row statement (insert-many-sql.ts, autocommit, one
// required row with its SHA-256: what the remembered save runs), against the floor's two message
// rows (BEGIN IMMEDIATE, two plain inserts, COMMIT). Formats:
//   today     two message rows, two `i/` id rows, a change row holding both messages (5 rows)
//   slim      as today, the change row naming the messages by id, ref and SHA-256 (5 rows)
//   no-i      two message rows, a change row holding both messages; no id rows (3 rows)
//   no-i slim two message rows, a change row naming them by id, ref and SHA-256 (3 rows)
//   no-change two message rows and their `i/` rows, no change row (4 rows)
//   two       the two message rows alone, through the same statement (2 rows)
// CPU µs per call, median [min-max] of the rounds, formats interleaved per round; then the pages
// each call's commit writes to the WAL (40 calls after a checkpoint).
//   node tools/bench/scripts/mastra-save-row-formats.mjs [callsPerRound=300] [rounds=7]
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { canonicalize } from '@session-checkpoint/core';
import { insertManyIfPresentParameters, insertManyIfPresentSql } from '../../../packages/store-kysely/dist/insert-many-sql.js';
import { msg, openRowsDb, pad, sha } from './mastra-rows-db.mjs';

const perRound = Number(process.argv[2] ?? 300);
const rounds = Number(process.argv[3] ?? 7);
const { db, path, remove } = await openRowsDb('mastra-save-row-formats');
const row = (kind, payload, ref, tag) => {
  const j = canonicalize(payload);
  return { namespace: 'mastra', sessionId: `t:w${tag}`, kind, name: 'n', payloadJson: j, payloadSha256: sha(j), createdAt: new Date().toISOString(), sourceRef: ref };
};
const format = (i, tag, { idRows, slim, change = true }) => {
  const pair = [msg(2 * i, 'user'), msg(2 * i + 1, 'assistant')];
  const out = [];
  const named = [];
  for (const [k, m] of pair.entries()) {
    const ref = `m/w${tag}/${pad(i)}/${k}`;
    const r = row('mastra.message', { messageId: m.id, value: m }, ref, tag);
    out.push(r);
    named.push({ id: m.id, ref, sha256: r.payloadSha256 });
    if (idRows) out.push(row('mastra.message-id', { messageId: m.id, threadId: 'w', ref }, `i/w${tag}-${2 * i + k}`, tag));
  }
  if (!change) return out;
  const c = { threadId: 'w', seq: i, op: 'save', count: 2 * i, at: new Date().toISOString() };
  out.push(row('mastra.change', slim ? { ...c, messages: named } : { ...c, value: pair }, `c/w${tag}/${pad(i)}`, tag));
  return out;
};
const insert = db.prepare('insert into checkpoints (namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref) values (?, ?, ?, ?, ?, ?, ?, ?)');
const begin = db.prepare('begin immediate');
const commit = db.prepare('commit');
const plainRow = (r) => [r.namespace, r.sessionId, r.kind, r.name, r.payloadJson, r.payloadSha256, r.createdAt, r.sourceRef];
// A thread of 1,000 messages first, in today's format.
for (let i = 0; i < 500; i++) {
  begin.run();
  for (const r of format(i, 'fill', { idRows: true, slim: false })) insert.run(plainRow(r));
  commit.run();
}
const required = db.prepare(`select payload_sha256 from checkpoints where source_ref = ?`).get(`c/wfill/${pad(499)}`).payload_sha256;
const present = [{ sourceRef: `c/wfill/${pad(499)}`, payloadSha256: required }];
const statements = new Map();
const conditional = (rows) => {
  let s = statements.get(rows.length);
  if (s === undefined) statements.set(rows.length, (s = db.prepare(insertManyIfPresentSql('"checkpoints"', 'sqlite', rows.length, present, false, false))));
  const ids = s.all(insertManyIfPresentParameters('sqlite', rows, present, undefined));
  if (ids.length !== rows.length) throw new Error('not inserted');
};
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const variants = {
  'floor: 2 message rows, BEGIN + 2 inserts + COMMIT': (i) => {
    const rs = format(i, 'floor', { idRows: false, slim: true }).slice(0, 2);
    begin.run();
    for (const r of rs) insert.run(plainRow(r));
    commit.run();
  },
  'today: 5 rows (2 messages, 2 i/, full change)': (i) => conditional(format(i, 'today', { idRows: true, slim: false })),
  'slim: 5 rows (2 messages, 2 i/, change naming them)': (i) => conditional(format(i, 'slim', { idRows: true, slim: true })),
  'no-i: 3 rows (2 messages, full change)': (i) => conditional(format(i, 'noi', { idRows: false, slim: false })),
  'no-i slim: 3 rows (2 messages, change naming them)': (i) => conditional(format(i, 'noislim', { idRows: false, slim: true })),
  'no-change: 4 rows (2 messages, 2 i/)': (i) => conditional(format(i, 'nochange', { idRows: true, slim: true, change: false })),
  'two: 2 message rows, same statement': (i) => conditional(format(i, 'two', { idRows: false, slim: true }).slice(0, 2)),
};
const results = {};
for (let round = 0; round < rounds; round++) {
  for (const [name, f] of Object.entries(variants)) {
    const base = 100_000 * (round + 1);
    const c0 = cpu();
    for (let i = 0; i < perRound; i++) f(base + i);
    (results[name] ??= []).push((cpu() - c0) / perRound);
  }
}
// Pages written per call: each commit appends every page it changed to the WAL (a 24-byte frame
// header and the page), so the WAL's growth over a few calls after a checkpoint counts them.
const pageSize = db.pragma('page_size', { simple: true });
const frames = {};
for (const [name, f] of Object.entries(variants)) {
  if (name.startsWith('rows built')) continue;
  db.pragma('wal_checkpoint(TRUNCATE)');
  const calls = 40;
  for (let i = 0; i < calls; i++) f(9_000_000 + i);
  frames[name] = statSync(`${path}-wal`).size / (pageSize + 24) / calls;
}
remove();
console.log(`Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, ${rounds} rounds of ${perRound}; CPU µs per call (rows built and written), median [min-max]`);
for (const [name, xs] of Object.entries(results)) {
  const s = [...xs].sort((a, b) => a - b);
  const pages = frames[name] === undefined ? '' : `  (${frames[name].toFixed(1)} pages written per call)`;
  console.log(`${s[Math.floor(s.length / 2)].toFixed(1).padStart(7)} [${s[0].toFixed(0)}-${s.at(-1).toFixed(0)}]  ${name}${pages}`);
}
