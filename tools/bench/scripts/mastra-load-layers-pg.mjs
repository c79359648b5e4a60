#!/usr/bin/env node
/**
 * A Mastra loadWorkflowSnapshot on PostgreSQL, layer by layer by subtraction, against
 * `@mastra/pg`'s (issue 38 item 4, decision record 0058; the persist counterpart is
 * mastra-persist-layers-pg.mjs, record 0057). One process; rounds in shuffled order, a full
 * collection and a 50 ms pause before each (with --expose-gc); every input built before a round's
 * timing. This process's CPU per call (process.cpuUsage; the server's is not counted), median
 * [min-max] of the rounds after a warm-up round.
 *
 * Our load (`CheckpointWorkflowsStorage` over `openPostgresStore`: the domain's
 * listBySourceRefPrefix, newest snapshot of the run, descending, limit 1), one store per level over
 * one schema of 20 runs persisted twice each, with the layers below a level stubbed, answering at
 * once with a fresh copy of the row the server returns (its strings fresh copies too, as pg makes):
 *   core     the adapter's listBySourceRefPrefix stubbed: the domain, core's validation,
 *            verification (the memo of verified texts: a hit compares the text) and the record,
 *            the payload's JSON.parse, valuesOf
 *   sk-pool  pg's Pool#connect stubbed (a fake client): + store-kysely's range template, runner,
 *            bounded pool checkout/release, client guard, numeric ids
 *   sk       pg's Client#query stubbed: + pg-pool's checkout and release
 *   full     nothing stubbed: + pg's query (Parse/Bind/Execute, the socket, 9 columns parsed)
 * and, as an interplay contender, the core level followed by our select on a Client of its own.
 * Peers in the same rounds: our captured select (text and values) by a pg Pool's `query` and a
 * Client's callback; the same select asking only id, payload_json, payload_sha256, source_ref;
 * `@mastra/pg`'s select (`SELECT * ... ORDER BY "createdAt" DESC LIMIT 1`) by a Pool's `query`;
 * their whole load. JavaScript alone: JSON.parse of our payload text and of their snapshot's jsonb
 * text (pg's type parser parses it),
 * core's checkStoredPayload (the hash path of a memo miss), comparing the text with a fresh copy
 * (the memo hit).
 *
 * SC_LAYERS_ONLY=<regular expression> runs only the contenders whose names match;
 * SC_LAYERS_ROUNDS=1 prints every round.
 *
 * Usage (after npm run build, Node 22.13+ for the Mastra packages):
 *   SC_PG_URL=postgres://postgres@127.0.0.1:5432/test node --expose-gc tools/bench/scripts/mastra-load-layers-pg.mjs [rounds=7] [statementCallsPerRound=400]
 * (JavaScript-only and stubbed contenders run 10x as many calls per round.)
 */
import { checkStoredPayload, DEFAULT_LIMITS } from '@session-checkpoint/core';
import { openPostgresStore } from '@session-checkpoint/store-kysely';
import { CheckpointWorkflowsStorage } from '@session-checkpoint/mastra';
import { argsOf, layerArgs, runLayerRounds, stubPg } from './pg-workflow-bench.mjs';

const { pg, url, rounds, perRound } = layerArgs();

// While `capturing`, each snapshot range read's text, values and answered rows are kept.
let capturing = false;
const captured = [];
const pending = [];
const stubs = stubPg(pg, () => ({ rows: [pending.shift()], command: 'SELECT', rowCount: 1, fields: [] }), (config, values, callback) => {
  if (!capturing || typeof values === 'function' || typeof callback !== 'function') return undefined;
  const text = typeof config === 'string' ? config : config?.text;
  if (typeof text !== 'string' || !text.includes('source_ref') || !text.toLowerCase().includes('desc')) return undefined;
  return (e, r) => {
    if (!e) captured.push({ text, values: [...values], rows: r.rows });
    callback(e, r);
  };
});
const loadOf = (i) => ({ workflowName: 'bench', runId: `run-${i % 20}` });
const fresh = (s) => Buffer.from(s, 'utf8').toString('utf8');

const tag = `load_layers_${process.pid}`;
const schemas = { ours: `${tag}_ours`, mastra: `${tag}_mastra` };
const admin = new pg.Client({ connectionString: url });
await admin.connect();
const closers = [];
try {
  const LEVELS = ['core', 'sk-pool', 'sk', 'full'];
  const levels = {};
  for (const level of LEVELS) {
    const store = await openPostgresStore(url, { schema: schemas.ours });
    closers.push(() => store.close());
    levels[level] = { store, workflows: new CheckpointWorkflowsStorage(store) };
  }
  for (let i = 0; i < 40; i++) await levels.full.workflows.persistWorkflowSnapshot(argsOf(i));
  // Each level's store asks the server once for its collation at its first range read: before any stub.
  for (const key of LEVELS) await levels[key].workflows.loadWorkflowSnapshot(loadOf(0));
  capturing = true;
  for (let i = 0; i < 20; i++) await levels.full.workflows.loadWorkflowSnapshot(loadOf(i));
  capturing = false;
  if (captured.length !== 20 || captured.some((c) => c.rows.length !== 1)) throw new Error(`captured ${captured.length} range reads, not 20 of one row`);
  const rowOf = (i) => {
    const row = captured[i % 20].rows[0];
    const out = {};
    for (const [k, v] of Object.entries(row)) out[k] = typeof v === 'string' ? fresh(v) : v;
    return out;
  };
  // An adapter row (numeric id) for the core level.
  const adapterRowOf = (i) => ({ ...rowOf(i), id: Number(captured[i % 20].rows[0].id) });
  levels.core.store.adapter.listBySourceRefPrefix = async () => [pending.shift()];
  const { text: ourSql } = captured[0];
  const fewerSql = ourSql.replace(/^select .*? from/isu, 'select "id", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "source_ref" as "sourceRef" from');
  if (fewerSql === ourSql) throw new Error(`could not narrow the select list: ${ourSql}`);
  console.log(`our select: ${ourSql}\n  values: ${JSON.stringify(captured[0].values)}`);

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const pool = new pg.Pool({ connectionString: url, max: 20, idleTimeoutMillis: 30_000 });
  closers.push(() => client.end(), () => pool.end());
  await pool.query('select 1');

  const { PostgresStore } = await import('@mastra/pg');
  const mastraPg = new PostgresStore({ id: 'load-layers', connectionString: url, schemaName: schemas.mastra });
  await mastraPg.init();
  closers.push(() => mastraPg.close?.());
  const theirs = await mastraPg.getStore('workflows');
  for (let i = 0; i < 40; i++) await theirs.persistWorkflowSnapshot(argsOf(i));
  const theirSql = `SELECT * FROM "${schemas.mastra}"."mastra_workflow_snapshot" WHERE "workflow_name" = $1 AND "run_id" = $2 ORDER BY "createdAt" DESC LIMIT 1`;
  // Their snapshot column is jsonb: pg's type parser runs JSON.parse on the server's text (with a
  // space after each ':' and ','), inside pg's row parsing.
  const theirText = (await pool.query(`SELECT snapshot::text AS t FROM "${schemas.mastra}"."mastra_workflow_snapshot" WHERE run_id = 'run-0'`)).rows[0].t;
  const callback = (text, values) => new Promise((resolve, reject) => client.query(text, values, (e, r) => (e ? reject(e) : resolve(r))));
  const check = (s) => {
    if (s?.context?.step1?.output?.text?.length !== 3500) throw new Error('wrong snapshot');
  };

  const contenders = new Map();
  const add = (name, op, setup, { scale = 1, stub } = {}) => contenders.set(name, { op, setup, scale, stub });
  add('loop: await of an async no-op', async () => undefined, () => undefined, { scale: 10 });
  add('JS: JSON.parse of our payload text', (t) => JSON.parse(t), (i) => rowOf(i).payloadJson, { scale: 10 });
  add('JS: JSON.parse of their snapshot jsonb text (done by pg)', (t) => JSON.parse(t), () => fresh(theirText), { scale: 10 });
  add('JS: checkStoredPayload (memo miss: scan + SHA-256)', (r) => checkStoredPayload(r.payloadJson, r.payloadSha256, DEFAULT_LIMITS), rowOf, { scale: 10 });
  add('JS: text === fresh copy (memo hit)', ([a, b]) => a === b, (i) => [captured[i % 20].rows[0].payloadJson, rowOf(i).payloadJson], { scale: 10 });
  const level = (name, key, stub) => add(name, async ([a, row]) => {
    if (row !== undefined) pending.push(row);
    check(await levels[key].workflows.loadWorkflowSnapshot(a));
  }, (i) => [loadOf(i), key === 'full' ? undefined : key === 'core' ? adapterRowOf(i) : rowOf(i)], { scale: key === 'full' ? 1 : 10, stub });
  level('ours: domain + core (adapter stubbed)', 'core');
  level('ours: + store-kysely, its pool wrapper (pg Pool#connect stubbed)', 'sk-pool', 'connect');
  level('ours: + pg-pool checkout/release (pg Client#query stubbed)', 'sk', 'query');
  level('ours: whole load', 'full');
  add('theirs: @mastra/pg whole load', async (a) => check(await theirs.loadWorkflowSnapshot(a)), loadOf);
  const ourValues = (i) => captured[i % 20].values;
  add('stmt: our select (9 columns), Pool.query', (v) => pool.query(ourSql, v), ourValues);
  add('stmt: our select (9 columns), Client callback', (v) => callback(ourSql, v), ourValues);
  add('stmt: our select, 4 columns, Pool.query', (v) => pool.query(fewerSql, v), ourValues);
  add('stmt: their select *, Pool.query', (v) => pool.query(theirSql, v), (i) => ['bench', `run-${i % 20}`]);
  add('stmt: their select *, Client callback', (v) => callback(theirSql, v), (i) => ['bench', `run-${i % 20}`]);
  // The JavaScript between round trips: our domain and core (adapter stubbed) before our select,
  // against the select alone (record 0057: JavaScript run between waits costs more than in a loop).
  add('interplay: ours domain + core (adapter stubbed), then our select, Client callback', async ([a, row, v]) => {
    pending.push(row);
    check(await levels.core.workflows.loadWorkflowSnapshot(a));
    await callback(ourSql, v);
  }, (i) => [loadOf(i), adapterRowOf(i), ourValues(i)]);

  await runLayerRounds(contenders, { rounds, perRound, stubs, seed: 58, levels: LEVELS.length, whole: ['ours: whole load', 'theirs: @mastra/pg whole load'], afterEach: (name) => {
    if (pending.length !== 0) throw new Error(`${name}: ${pending.length} stub rows left`);
  } });
} finally {
  for (const close of closers.reverse()) await Promise.resolve().then(close).catch(() => undefined);
  for (const s of Object.values(schemas)) await admin.query(`drop schema if exists "${s}" cascade`);
  await admin.end();
}
