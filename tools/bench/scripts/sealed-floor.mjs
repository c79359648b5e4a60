/**
 * The floor of a sealed create (issue 36, item 8; docs/decisions/0032-sealed-cost-frameworks.md):
 * in one run on this machine, what a plain create costs, and what any sealed create must add
 * whatever its design, each measured alone with the primitives the issue names:
 *
 * - the row: one AES-256-GCM encryption of the 1 KiB payload (the row's identity as associated
 *   data, a random 96-bit nonce), one HMAC-SHA256 over the row's MAC input (every column, the
 *   chain place, nonce and tag), the envelope's base64 text and its SHA-256 (the payload_sha256
 *   column the Python tool checks), and raw deflate (not a check: what the bytes bar needs of a
 *   1 KiB row, which stored uncompressed is 1.44x plain);
 * - the heads: the session head's HMAC, the store head's accumulator HMAC and its AES-256-GCM
 *   encryption (rollback of a session, and of one session restored with its head);
 * - the head write: the statement and page a head costs in the row's own atomic step. SQLite: an
 *   autocommit insert against BEGIN IMMEDIATE, the insert, one upsert of two meta entries, COMMIT;
 *   PostgreSQL: an insert against one statement that inserts and upserts the entries (CTE).
 *
 * Beside them, the store's own sealed create (as built), to see how far it is from the floor.
 * Rows are shaped like the store's (its schema, 8 sessions, 1 KiB agent states). CPU time of this
 * process per call (process.cpuUsage), medians of rounds that rotate the order. On PostgreSQL the
 * server's CPU is not counted; wall time is printed beside it.
 *
 * After building (npx nx run-many -t build -p @session-checkpoint/bench):
 *   SC_PG_URL=postgres://postgres@127.0.0.1:5432/test node tools/bench/scripts/sealed-floor.mjs [rounds] [callsPerRound]
 */
import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { Keyring } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import { agentState } from '../dist/payloads.js';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
const pg = require('pg');

const rounds = Number(process.argv[2] ?? 5);
const perRound = Number(process.argv[3] ?? 400);
const url = process.env.SC_PG_URL;
const dir = mkdtempSync(join(tmpdir(), 'sealed-floor-'));
const payloads = Array.from({ length: 16 }, (_, i) => agentState(1024, i));
const texts = payloads.map((p) => JSON.stringify(p));
const key = randomBytes(32);
const macKey = randomBytes(32);
const keys = Keyring.generate('floor');

/** 4-byte length prefixes, as core's macInput writes them: one allocation, written in place. */
function macInput(fields) {
  let length = 4 * fields.length;
  for (const f of fields) length += typeof f === 'string' ? Buffer.byteLength(f) : f.length;
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (const f of fields) {
    const n = typeof f === 'string' ? out.write(f, at + 4) : (out.set(f, at + 4), f.length);
    out.writeUInt32BE(n, at);
    at += 4 + n;
  }
  return out;
}
/** Random bytes from a pool filled 4 KiB at a time, as core draws nonces and links. */
let pool = Buffer.alloc(0);
let drawn = 0;
function random(n) {
  if (drawn + n > pool.length) {
    pool = randomBytes(4096);
    drawn = 0;
  }
  drawn += n;
  return pool.subarray(drawn - n, drawn);
}
const identity = (i) => ['session-checkpoint/row/v1', 'k1', String(1000 + i), 'bench', `s-${i % 8}`, 'checkpoint', 'default', '2026-12-06T07:00:00.000Z', ''];

/** The irreducible crypto of a sealed create, one function per part. */
const crypto = {
  'deflate (bytes bar)': (i) => deflateRawSync(Buffer.from(texts[i & 15], 'utf8'), { level: 1, windowBits: 12, memLevel: 4, chunkSize: 1088 }),
  'AES-256-GCM of the payload': (i) => {
    const c = createCipheriv('aes-256-gcm', key, random(12));
    c.setAAD(macInput([...identity(i), 'link-link-link']));
    return Buffer.concat([c.update(Buffer.from(texts[i & 15], 'utf8')), c.final(), c.getAuthTag()]);
  },
  'HMAC-SHA256 row seal': (i) => createHmac('sha256', macKey).update(macInput([...identity(i), 'link', 'prev', 'iv-iv-iv-iv-', random(16), 'deflate'])).digest(),
  'envelope base64 + SHA-256': (i) => createHash('sha256').update(`{"ct":"${Buffer.from(texts[i & 15]).subarray(0, 700).toString('base64url')}"}`).digest('hex'),
  'session head HMAC': (i) => createHmac('sha256', macKey).update(macInput(['session-checkpoint/session-head/v1', 'k1', 'bench', `s-${i % 8}`, String(i), 'lastlastlastlast', 'toptoptoptoptopt', '2026-12-06T07:00:00.000Z', '0'])).digest(),
  'store head: accumulator HMAC + AES-GCM': () => {
    const term = createHmac('sha256', macKey).update(macInput(['session-checkpoint/accumulator/v1', random(32).toString('base64url')])).digest();
    const c = createCipheriv('aes-256-gcm', key, random(12));
    c.setAAD(macInput(['session-checkpoint/store-head/v1', 'k1']));
    return Buffer.concat([c.update(Buffer.from(JSON.stringify({ epoch: 1, acc: term.toString('base64url') }))), c.final(), c.getAuthTag()]);
  },
};

const cpuNow = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Per call: CPU and wall µs of `op` over `count` calls. */
async function time(count, op) {
  const c0 = cpuNow();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await op(i);
  return { cpu: (cpuNow() - c0) / count, wall: Number(process.hrtime.bigint() - t0) / 1e3 / count };
}

const contenders = new Map();
const add = (name, op, count = perRound) => contenders.set(name, { op, count, cpu: [], wall: [] });

for (const [name, op] of Object.entries(crypto)) add(`crypto: ${name}`, op, perRound * 10);

const row = (i) => ['bench', `s-${i % 8}`, 'checkpoint', 'default', texts[i & 15], createHash('sha256').update(texts[i & 15]).digest('hex'), new Date().toISOString()];
const headValue = 'x'.repeat(420); // about a session head's text
const storeValue = 'y'.repeat(150); // about a store head's text

const cleanups = [];
for (const durability of ['normal', 'full']) {
  const store = await openSqliteStore(join(dir, `plain-${durability}.sqlite`), { durability });
  const sealed = await openSqliteStore(join(dir, `sealed-${durability}.sqlite`), { durability, keys });
  cleanups.push(() => store.close(), () => sealed.close());
  add(`SQLite "${durability}": plain create (the store)`, (i) => store.create({ namespace: 'bench', sessionId: `s-${i % 8}`, payload: payloads[i & 15] }), durability === 'full' ? perRound / 2 : perRound);
  add(`SQLite "${durability}": sealed create (the store, as built)`, (i) => sealed.create({ namespace: 'bench', sessionId: `s-${i % 8}`, payload: payloads[i & 15] }), durability === 'full' ? perRound / 2 : perRound);
  // The same schema, written by raw statements: the head write's own cost.
  const path = join(dir, `raw-${durability}.sqlite`);
  (await openSqliteStore(path, { durability })).close();
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${durability}`);
  cleanups.push(() => db.close());
  const insert = db.prepare('insert into checkpoints (namespace, session_id, kind, name, payload_json, payload_sha256, created_at) values (?, ?, ?, ?, ?, ?, ?)');
  const upsert = db.prepare('insert into checkpoint_meta (key, value) values (?, ?), (?, ?) on conflict (key) do update set value = excluded.value');
  const begin = db.prepare('begin immediate');
  const commit = db.prepare('commit');
  const count = durability === 'full' ? perRound / 2 : perRound;
  add(`SQLite "${durability}": raw insert, autocommit`, (i) => insert.run(...row(i)), count);
  add(`SQLite "${durability}": raw insert + heads upsert, one transaction`, (i) => {
    begin.run();
    insert.run(...row(i));
    upsert.run(`seal:session:${i % 8}`, headValue + i, 'seal:store', storeValue + i);
    commit.run();
  }, count);
}

if (url) {
  const schema = `sealed_floor_${process.pid}`;
  const store = await openPostgresStore(url, { schema, poolSize: 2 });
  const sealed = await openPostgresStore(url, { schema: `${schema}_sealed`, poolSize: 2, keys });
  cleanups.push(async () => {
    await store.close();
    await sealed.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.query(`drop schema if exists "${schema}_sealed" cascade`);
    await admin.end();
  });
  const count = perRound / 2;
  add('PostgreSQL: plain create (the store)', (i) => store.create({ namespace: 'bench', sessionId: `s-${i % 8}`, payload: payloads[i & 15] }), count);
  add('PostgreSQL: sealed create (the store, as built)', (i) => sealed.create({ namespace: 'bench', sessionId: `s-${i % 8}`, payload: payloads[i & 15] }), count);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  cleanups.push(() => client.end());
  const t = `"${schema}"`;
  const insertSql = `insert into ${t}.checkpoints (namespace, session_id, kind, name, payload_json, payload_sha256, created_at) values ($1, $2, $3, $4, $5, $6, $7) returning id`;
  add('PostgreSQL: raw insert', (i) => client.query(insertSql, row(i)), count);
  add('PostgreSQL: raw insert + heads upsert, one statement', (i) =>
    client.query(
      `with ins as (${insertSql}), heads as (insert into ${t}.checkpoint_meta (key, value) select k, v from (values ($8::text, $9::text), ($10::text, $11::text)) as e(k, v) where exists (select 1 from ins) on conflict (key) do update set value = excluded.value returning 1) select id from ins`,
      [...row(i), `seal:session:${i % 8}`, headValue + i, 'seal:store', storeValue + i],
    ), count);
}

const names = [...contenders.keys()];
for (const [, c] of contenders) await time(20, c.op); // warm-up
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < names.length; k++) {
    const c = contenders.get(names[(k + r) % names.length]);
    const { cpu, wall } = await time(c.count, c.op);
    c.cpu.push(cpu);
    c.wall.push(wall);
  }
}
for (const f of cleanups.reverse()) await f();
rmSync(dir, { recursive: true, force: true });

const fmt = (x) => x.toFixed(1).padStart(7);
console.log(`Node ${process.version}, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}, ${rounds} rounds`);
console.log(`${'µs per call (median of rounds)'.padEnd(62)}    CPU    wall`);
for (const name of names) {
  const c = contenders.get(name);
  console.log(`${name.padEnd(62)}${fmt(median(c.cpu))} ${fmt(median(c.wall))}`);
}
const cpuOf = (name) => median(contenders.get(name).cpu);
const cryptoTotal = Object.keys(crypto).reduce((s, n) => s + cpuOf(`crypto: ${n}`), 0);
const checks = cryptoTotal - cpuOf('crypto: deflate (bytes bar)');
console.log(`\nirreducible crypto of a sealed create: ${checks.toFixed(1)} µs (${cryptoTotal.toFixed(1)} with deflate)`);
const report = (label, plain, rawPlain, rawHeads) => {
  const head = cpuOf(rawHeads) - cpuOf(rawPlain);
  const floor = checks + head;
  const built = cpuOf(plain.replace('plain create (the store)', 'sealed create (the store, as built)'));
  console.log(`${label}: plain create ${cpuOf(plain).toFixed(1)} µs CPU; head write +${head.toFixed(1)}; floor ${floor.toFixed(1)} µs = ${(1 + floor / cpuOf(plain)).toFixed(2)}x (${(1 + (floor + cpuOf('crypto: deflate (bytes bar)')) / cpuOf(plain)).toFixed(2)}x with deflate); 15% of plain is ${(0.15 * cpuOf(plain)).toFixed(1)} µs; sealed as built ${built.toFixed(1)} µs = ${(built / cpuOf(plain)).toFixed(2)}x`);
};
for (const d of ['normal', 'full']) report(`SQLite "${d}"`, `SQLite "${d}": plain create (the store)`, `SQLite "${d}": raw insert, autocommit`, `SQLite "${d}": raw insert + heads upsert, one transaction`);
if (url) {
  report('PostgreSQL (client CPU)', 'PostgreSQL: plain create (the store)', 'PostgreSQL: raw insert', 'PostgreSQL: raw insert + heads upsert, one statement');
  const wallOf = (name) => median(contenders.get(name).wall);
  const plain = wallOf('PostgreSQL: plain create (the store)');
  const head = wallOf('PostgreSQL: raw insert + heads upsert, one statement') - wallOf('PostgreSQL: raw insert');
  const floor = checks + cpuOf('crypto: deflate (bytes bar)') + head;
  const built = wallOf('PostgreSQL: sealed create (the store, as built)');
  console.log(`PostgreSQL (wall): plain create ${plain.toFixed(1)} µs; head write +${head.toFixed(1)}; floor with deflate ${floor.toFixed(1)} µs = ${(1 + floor / plain).toFixed(2)}x; 15% of plain is ${(0.15 * plain).toFixed(1)} µs; sealed as built ${built.toFixed(1)} µs = ${(built / plain).toFixed(2)}x`);
}
