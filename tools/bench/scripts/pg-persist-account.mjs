#!/usr/bin/env node
/**
 * Where the CPU of a Mastra snapshot persist on PostgreSQL goes, part by part, against
 * `@mastra/pg`'s (issue 38 item 4, decision record 0052): in one process, in rounds that rotate
 * the order, this process's CPU per call (process.cpuUsage; the server's work is not counted) of
 *
 * - the JavaScript a verified row needs: core's canonicaliser on the persist's payload (the
 *   4 KB snapshot of mastra-storage.mjs with its row fields), SHA-256 of that text; and what
 *   `@mastra/pg` does instead (`JSON.stringify` and its `\u0000` check, `toPgJson`);
 * - one statement by pg with everything computed before the timing: the floor's plain insert
 *   (8 parameters) by `client.query`'s promise, by its callback form, and by the callback form
 *   as a named prepared statement (pg's documented `name`); the store's conditional insert
 *   (13 parameters, the text `store-kysely` sends) by the callback form, unnamed and named;
 *   `@mastra/pg`'s upsert (8 parameters, 4 of them `Date`s pg turns into text) by `pool.query`,
 *   as `@mastra/pg` sends it, and by the callback form on one client;
 * - the conditional insert by a pg `Pool` of one client (`pool.query`, as `@mastra/pg` sends);
 *   the adapter's `insertIfPresent` (`store-kysely`, the store's pool, pg) on a prepared row; the
 *   store's `insertPreparedIfPresent` (the facade too), on a store opened as usual and one
 *   opened with `preparedStatements: true`;
 * - the whole calls: ours (`CheckpointWorkflowsStorage`, both stores) and `@mastra/pg`'s.
 *
 * After `npm run build`, on Node 22.13+:
 *   SC_PG_URL=postgres://postgres@127.0.0.1:5432/test node tools/bench/scripts/pg-persist-account.mjs [rounds=7] [callsPerRound=300]
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { canonicalize, sha256Hex } from '@session-checkpoint/core';
import { openPostgresStore } from '@session-checkpoint/store-kysely';
import { CheckpointWorkflowsStorage } from '@session-checkpoint/mastra';
import { argsOf, COLUMNS, pad, payloadOf, snapshot } from './pg-workflow-bench.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');
const url = process.env.SC_PG_URL;
if (!url) throw new Error('set SC_PG_URL');
const rounds = Number(process.argv[2] ?? 7);
const perRound = Number(process.argv[3] ?? 300);


const tag = `persist_account_${process.pid}`;
const schemas = { floor: tag, ours: `${tag}_ours`, named: `${tag}_named`, mastra: `${tag}_mastra` };
const admin = new pg.Client({ connectionString: url });
await admin.connect();
// The schemas go in `finally`: a run that fails half way must not leave them on the server.
try {
  await (await openPostgresStore(url, { schema: schemas.floor })).close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const t = `"${schemas.floor}".checkpoints`;
  const floorSql = `insert into ${t} ${COLUMNS} values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`;

  // The conditional insert's text as store-kysely sends it, captured from pg.
  let conditionalSql;
  /** The parameters after the insert's 8 in the captured call (the refs and SHA-256s of that persist). */
  let conditionalTail;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, ...rest) {
    const text = typeof config === 'string' ? config : config?.text;
    if (conditionalSql === undefined && typeof text === 'string' && text.startsWith('insert into') && text.includes('for share')) {
      conditionalSql = text;
      conditionalTail = (Array.isArray(rest[0]) ? rest[0] : config.values).slice(8);
    }
    return query.call(this, config, ...rest);
  };
  const ours = await openPostgresStore(url, { schema: schemas.ours });
  const named = await openPostgresStore(url, { schema: schemas.named, preparedStatements: true });
  const oursW = new CheckpointWorkflowsStorage(ours);
  const namedW = new CheckpointWorkflowsStorage(named);
  const persistWith = (w) => (i) => w.persistWorkflowSnapshot(argsOf(i));
  for (let i = 0; i < 40; i++) {
    await persistWith(oursW)(i);
    await persistWith(namedW)(i);
  }
  pg.Client.prototype.query = query;
  if (conditionalSql === undefined) throw new Error('no conditional insert captured');
  const conditionalFloorSql = conditionalSql.replaceAll(`"${schemas.ours}"`, `"${schemas.floor}"`);

  const { PostgresStore } = await import('@mastra/pg');
  const mastraPg = new PostgresStore({ id: 'account', connectionString: url, schemaName: schemas.mastra });
  await mastraPg.init();
  const theirs = await mastraPg.getStore('workflows');
  const upsertSql = `INSERT INTO "${schemas.mastra}".mastra_workflow_snapshot AS t
                   (workflow_name, run_id, "resourceId", snapshot, "createdAt", "updatedAt", "createdAtZ", "updatedAtZ")
                   VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                   ON CONFLICT (workflow_name, run_id) DO UPDATE
                   SET "resourceId" = COALESCE($3, t."resourceId"), snapshot = $4, "updatedAt" = $6, "updatedAtZ" = $8`;
  const upsertPool = new pg.Pool({ connectionString: url, max: 1 });

  const callback = (text, values) => new Promise((resolve, reject) => client.query(text, values, (e, r) => (e ? reject(e) : resolve(r))));
  const namedCallback = (name, text, values) => new Promise((resolve, reject) => client.query({ name, text, values }, (e, r) => (e ? reject(e) : resolve(r))));
  // Present rows the conditional insert requires in the floor schema: a run record and snapshot 0 per run.
  const runSha = sha256Hex('{}');
  for (let r = 0; r < 20; r++) {
    await client.query(floorSql, ['mastra', `run-${r}`, 'mastra.run', 'r', '{}', runSha, new Date().toISOString(), `w/bench/run-${r}`]);
    await client.query(floorSql, ['mastra', `run-${r}`, 'mastra.snapshot', 's', '{}', runSha, new Date().toISOString(), `s/bench/run-${r}/${pad(0)}`]);
  }

  /** A verified row of persist `i` (canonical JSON, SHA-256), and the precondition's refs. */
  const rowOf = (i, prefix) => {
    const json = canonicalize(payloadOf(i));
    return ['mastra', `run-${i % 20}`, 'mastra.snapshot', `snapshot ${i}`, json, sha256Hex(json), new Date().toISOString(), `${prefix}/bench/run-${i % 20}/${pad(i)}`];
  };

  // Each contender: setup(i) outside the timing (may return undefined), op(input, i) timed.
  const contenders = new Map();
  const add = (name, op, setup = () => undefined) => contenders.set(name, { op, setup, cpu: [], next: 1 });
  add('JS: canonical JSON of the payload (core canonicalize)', (p) => canonicalize(p), payloadOf);
  add('JS: SHA-256 of the canonical text', (text) => sha256Hex(text), (i) => canonicalize(payloadOf(i)));
  add('JS: theirs, JSON.stringify + \\u0000 check (toPgJson)', (s) => { const j = JSON.stringify(s); return /\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/.test(j); }, (i) => snapshot('run', i));
  add('pg: floor insert, client.query promise', (row) => client.query(floorSql, row), (i) => rowOf(i, 'f1'));
  add('pg: floor insert, callback form', (row) => callback(floorSql, row), (i) => rowOf(i, 'f2'));
  add('pg: floor insert, callback form, named', (row) => namedCallback('floor_insert', floorSql, row), (i) => rowOf(i, 'f3'));
  const conditionalParams = (i, prefix) => {
    const row = rowOf(i, prefix);
    // The captured call's parameters after the insert's 8, for this row in the floor schema: the
    // namespace and the new ref (taken check), the table (id limit), the namespace, the run record's
    // ref and SHA-256, the previous snapshot's ref, their count.
    const tail = conditionalTail.map((v) => (typeof v === 'string' && v.includes(`"${schemas.ours}"`) ? v.replaceAll(`"${schemas.ours}"`, `"${schemas.floor}"`) : v));
    if (tail.length !== 8) throw new Error(`the conditional insert has ${8 + tail.length} parameters, this script knows 16`);
    return [...row, 'mastra', row[7], tail[2], 'mastra', `w/bench/run-${i % 20}`, runSha, `s/bench/run-${i % 20}/${pad(0)}`, 2];
  };
  add('pg: conditional insert (store-kysely text), callback form', (p) => callback(conditionalFloorSql, p), (i) => conditionalParams(i, 'c1'));
  add('pg: conditional insert, callback form, named', (p) => namedCallback('conditional_insert', conditionalFloorSql, p), (i) => conditionalParams(i, 'c2'));
  const upsertParams = (i) => { const now = new Date(); return [`bench-${i % 20}`, `run-${i % 20}`, undefined, JSON.stringify(snapshot('run', i)), now, now, now, now]; };
  add('pg: theirs, upsert by pool.query', (p) => upsertPool.query(upsertSql, p), upsertParams);
  add('pg: theirs, upsert by callback form', (p) => callback(upsertSql, p), upsertParams);
  const prepared = (store, prefix) => (i) => {
    const row = store.prepare({ namespace: 'mastra', sessionId: `run-${i % 20}`, kind: 'mastra.snapshot', name: `snapshot ${i}`, payload: payloadOf(i), sourceRef: `${prefix}/bench/run-${i % 20}/${pad(i)}` });
    return row;
  };
  // Required rows for the facade contenders: the run record only (present in both schemas from the persists above).
  const recordSha = async (store) => (await store.findBySourceRef('mastra', 'w/bench/run-0')).payloadSha256;
  const shaOurs = await recordSha(ours);
  const shaNamed = await recordSha(named);
  add('pg: conditional insert, pool.query (a pg Pool of one)', (p) => upsertPool.query(conditionalFloorSql, p), (i) => conditionalParams(i, 'c3'));
  // The adapter alone (store-kysely, the store's pool, pg), on rows the facade prepared.
  const rowOfPrepared = (row) => ({ namespace: row.namespace, sessionId: row.sessionId, kind: row.kind, name: row.name, payloadJson: row.payloadJson, payloadSha256: row.payloadSha256, createdAt: row.createdAt, sourceRef: row.sourceRef });
  add('adapter: insertIfPresent (store-kysely, the store\'s pool, pg)', (row) => ours.adapter.insertIfPresent(row, { present: [{ sourceRef: 'w/bench/run-0', payloadSha256: shaOurs }] }), (i) => rowOfPrepared(prepared(ours, 'a1')(i)));
  add('store: insertPreparedIfPresent (facade, store-kysely, pg)', (row) => ours.insertPreparedIfPresent(row, { present: [{ sourceRef: 'w/bench/run-0', payloadSha256: shaOurs }] }), prepared(ours, 'i1'));
  add('store: insertPreparedIfPresent, preparedStatements', (row) => named.insertPreparedIfPresent(row, { present: [{ sourceRef: 'w/bench/run-0', payloadSha256: shaNamed }] }), prepared(named, 'i2'));
  add('whole: ours persistWorkflowSnapshot', (i) => persistWith(oursW)(i), (i) => i);
  add('whole: ours persistWorkflowSnapshot, preparedStatements', (i) => persistWith(namedW)(i), (i) => i);
  add('whole: @mastra/pg persistWorkflowSnapshot', (i) => persistWith(theirs)(i), (i) => i);

  const cpuNow = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const names = [...contenders.keys()];
  for (let r = 0; r <= rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const c = contenders.get(names[(k + r) % names.length]);
      const inputs = [];
      for (let j = 0; j < perRound; j++) inputs.push(c.setup(c.next + j));
      const c0 = cpuNow();
      for (let j = 0; j < perRound; j++) await c.op(inputs[j], c.next + j);
      const cpu = (cpuNow() - c0) / perRound;
      c.next += perRound;
      // Round 0 warms up.
      if (r > 0) c.cpu.push(cpu);
    }
  }
  console.log(`Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, ${rounds} rounds of ${perRound} calls (after a warm-up round)`);
  console.log(`${'CPU µs per call: median [min-max] of rounds'.padEnd(66)}`);
  for (const name of names) {
    const xs = contenders.get(name).cpu;
    console.log(`${name.padEnd(66)}${median(xs).toFixed(1).padStart(7)} [${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}]`);
  }
  await ours.close();
  await named.close();
  await client.end();
  await upsertPool.end();
  await mastraPg.close?.();
} finally {
  for (const s of Object.values(schemas)) await admin.query(`drop schema if exists "${s}" cascade`);
  await admin.end();
}
