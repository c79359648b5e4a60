#!/usr/bin/env node
/**
 * A Mastra persistWorkflowSnapshot on PostgreSQL, layer by layer by subtraction, against
 * `@mastra/pg`'s (issue 38 item 4, decision record 0057; the SQLite counterpart is
 * mastra-persist-layers.mjs, record 0056). One process; rounds in shuffled order; every input
 * (snapshot objects, rows, parameters) is built before a round's timing; nothing wraps a call
 * inside the timing. This process's CPU per call (process.cpuUsage; the server's is not counted),
 * median [min-max] of the rounds after a warm-up round.
 *
 * Our persist (`CheckpointWorkflowsStorage` over `openPostgresStore`, one store and schema per
 * level), with the layers below a level replaced by a stub that answers at once:
 *   domain   the store's insertPreparedIfPresent stubbed: the domain and core's prepare
 *            (validation, canonical JSON, SHA-256)
 *   core     the adapter's insertIfPresent stubbed: + core's insertPreparedIfPresent
 *   sk-pool  pg's Pool#connect stubbed (a fake client answering at once): + store-kysely's
 *            parameters, runner, its bounded pool's checkout and release and the client guard
 *   sk       pg's Client#query stubbed (the callback answered at once): + pg-pool's own
 *            checkout and release (with the store's connectionTimeoutMillis)
 *   full     nothing stubbed: + pg's query (Parse/Bind/Execute, the socket, the answer)
 * Kysely is on none of these paths: it compiled the statement once (QueryTemplate) and the store
 * runs it on pg directly (pg-connection.ts, record 0038).
 *
 * Peers in the same rounds (statements with every parameter computed before the timing, in a
 * schema of their own holding the rows the conditional insert requires):
 *   - the store's conditional insert text (16 parameters, captured from a persist of this build)
 *     by a pg Pool's `query` (as `@mastra/pg` sends), by one pg Client's callback form, by its
 *     promise form, by a Pool opened with the store's pool options (`connectionTimeoutMillis`);
 *   - the floor's plain insert (8 parameters) by a Pool's `query` and by a Client's callback form;
 *   - `@mastra/pg`'s upsert (8 parameters, 4 `Date`s) by a Pool's `query` and by a Client's callback;
 *   - `@mastra/pg`'s whole persistWorkflowSnapshot;
 *   - pool checkouts alone (connect + release, no statement): pg Pool with and without
 *     connectionTimeoutMillis;
 *   - JavaScript alone: core canonicalize + SHA-256 of the persist's payload; theirs
 *     `JSON.stringify` + the `\u0000` check (toPgJson);
 *   - interplay: each side's JavaScript (ours: the persist with pg's Pool#connect stubbed, or
 *     canonicalize + SHA-256 alone; theirs: JSON.stringify + check) followed by a round trip on a Client of its own (`select 1`,
 *     `select pg_sleep(0.0005)`, or its own statement), against the round trip alone: what the
 *     JavaScript costs when it runs between round trips rather than in a tight loop.
 *
 * Rounds run the contenders in a shuffled order; with `node --expose-gc` each round starts on a
 * collected heap (otherwise a contender pays for its predecessor's garbage). SC_LAYERS_ROUNDS=1
 * prints every round's figure; SC_LAYERS_ONLY=<regular expression> runs only the contenders whose
 * names match.
 *
 * Usage (after npm run build, Node 22.13+ for the Mastra packages):
 *   SC_PG_URL=postgres://postgres@127.0.0.1:5432/test node --expose-gc tools/bench/scripts/mastra-persist-layers-pg.mjs [rounds=7] [statementCallsPerRound=400]
 * (JavaScript-only and stubbed contenders run 10x as many calls per round.)
 */
import { canonicalize, sha256Hex } from '@session-checkpoint/core';
import { openPostgresStore } from '@session-checkpoint/store-kysely';
import { CheckpointWorkflowsStorage } from '@session-checkpoint/mastra';
import { argsOf, COLUMNS, layerArgs, pad, payloadOf, runLayerRounds, snapshot, stubPg } from './pg-workflow-bench.mjs';

const { pg, url, rounds, perRound } = layerArgs();

// While `capturing`, the first conditional insert's text and its parameters after the row's 8 are kept.
let capturing = true;
let conditionalSql;
let conditionalTail;
let fakeId = 1e9;
const stubs = stubPg(pg, () => ({ rows: [{ id: String(++fakeId) }], command: 'INSERT', rowCount: 1, fields: [] }), (config, values) => {
  const text = typeof config === 'string' ? config : config?.text;
  if (capturing && conditionalSql === undefined && typeof text === 'string' && text.startsWith('insert into') && text.includes('for share')) {
    conditionalSql = text;
    conditionalTail = (Array.isArray(values) ? values : config.values).slice(8);
  }
  return undefined;
});

const tag = `persist_layers_${process.pid}`;
const LEVELS = ['domain', 'core', 'sk-pool', 'sk', 'full'];
const schemas = { peers: `${tag}_peers`, mastra: `${tag}_mastra`, ...Object.fromEntries(LEVELS.map((l) => [l, `${tag}_${l.replace('-', '_')}`])) };
const admin = new pg.Client({ connectionString: url });
await admin.connect();
const closers = [];
try {
  const levels = {};
  for (const level of LEVELS) {
    const store = await openPostgresStore(url, { schema: schemas[level] });
    closers.push(() => store.close());
    const workflows = new CheckpointWorkflowsStorage(store);
    for (let i = 0; i < 40; i++) await workflows.persistWorkflowSnapshot(argsOf(i));
    if (level === 'domain') store.insertPreparedIfPresent = async () => ({ id: ++fakeId });
    if (level === 'core') store.adapter.insertIfPresent = async () => ++fakeId;
    levels[level] = workflows;
  }
  capturing = false;
  if (conditionalSql === undefined) throw new Error('no conditional insert captured');
  if (conditionalTail.length !== 8 || conditionalTail[0] !== 'mastra' || conditionalTail[7] !== 2) throw new Error(`the conditional insert's parameters are not the 16 this script knows: ${JSON.stringify(conditionalTail)}`);
  // Captured from the first level's store: the same text in the peers' schema.
  const toSchema = `"${schemas.peers}"`;
  const toPeers = (text) => LEVELS.reduce((t, l) => t.replaceAll(`"${schemas[l]}"`, toSchema), text);
  const peerSql = toPeers(conditionalSql);
  const peerTable = toPeers(conditionalTail[2]);

  // The peers' schema: the store's tables, and a run record and snapshot 0 per run (the rows the conditional insert requires).
  await (await openPostgresStore(url, { schema: schemas.peers })).close();
  const floorSql = `insert into ${toSchema}.checkpoints ${COLUMNS} values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`;
  const runSha = sha256Hex('{}');
  for (let r = 0; r < 20; r++) {
    await admin.query(floorSql, ['mastra', `run-${r}`, 'mastra.run', 'r', '{}', runSha, new Date().toISOString(), `w/bench/run-${r}`]);
    await admin.query(floorSql, ['mastra', `run-${r}`, 'mastra.snapshot', 's', '{}', runSha, new Date().toISOString(), `s/bench/run-${r}/${pad(0)}`]);
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  closers.push(() => client.end());
  // A pg Pool as @mastra/pg opens it (no connectionTimeoutMillis), and one with the store's options.
  const pool = new pg.Pool({ connectionString: url, max: 20, idleTimeoutMillis: 30_000 });
  const storePool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
  closers.push(() => pool.end(), () => storePool.end());
  await Promise.all([pool.query('select 1'), storePool.query('select 1')]);

  const { PostgresStore } = await import('@mastra/pg');
  const mastraPg = new PostgresStore({ id: 'layers', connectionString: url, schemaName: schemas.mastra });
  await mastraPg.init();
  closers.push(() => mastraPg.close?.());
  const theirs = await mastraPg.getStore('workflows');
  for (let i = 0; i < 40; i++) await theirs.persistWorkflowSnapshot(argsOf(i));
  const upsertSql = `INSERT INTO "${schemas.mastra}".mastra_workflow_snapshot AS t
                 (workflow_name, run_id, "resourceId", snapshot, "createdAt", "updatedAt", "createdAtZ", "updatedAtZ")
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                 ON CONFLICT (workflow_name, run_id) DO UPDATE
                 SET "resourceId" = COALESCE($3, t."resourceId"), snapshot = $4, "updatedAt" = $6, "updatedAtZ" = $8`;

  /** A verified row of persist `i` (canonical JSON, SHA-256) with a ref of its own. */
  const rowOf = (i, prefix) => {
    const json = canonicalize(payloadOf(i));
    return ['mastra', `run-${i % 20}`, 'mastra.snapshot', `snapshot ${i}`, json, sha256Hex(json), new Date().toISOString(), `${prefix}/bench/run-${i % 20}/${pad(i)}`];
  };
  // After the row's 8: the namespace and the new ref (taken check), the table (id limit), the
  // namespace, the run record's ref and SHA-256, the previous snapshot's ref, their count.
  const conditionalOf = (prefix) => (i) => {
    const row = rowOf(i, prefix);
    return [...row, 'mastra', row[7], peerTable, 'mastra', `w/bench/run-${i % 20}`, runSha, `s/bench/run-${i % 20}/${pad(0)}`, 2];
  };
  const floorOf = (prefix) => (i) => rowOf(i, prefix);
  const upsertOf = (i) => {
    const now = new Date();
    return [`bench-${i % 20}`, `run-${i % 20}`, undefined, JSON.stringify(snapshot(`run-${i % 20}`, i)), now, now, now, now];
  };
  const callback = (text, values) => new Promise((resolve, reject) => client.query(text, values, (e, r) => (e ? reject(e) : resolve(r))));

  // Each contender: setup(i) builds the input outside the timing, op(input) is timed.
  const contenders = new Map();
  const add = (name, op, setup, { scale = 1, stub } = {}) => contenders.set(name, { op, setup, scale, stub });
  const noop = async () => undefined;
  add('loop: await of an async no-op', noop, () => undefined, { scale: 10 });
  add('JS: core canonicalize + SHA-256 of the payload', (p) => sha256Hex(canonicalize(p)), payloadOf, { scale: 10 });
  add('JS: theirs JSON.stringify + \\u0000 check', (s) => /\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/.test(JSON.stringify(s)), (i) => snapshot('run', i), { scale: 10 });
  add('ours: domain (store stubbed)', (a) => levels.domain.persistWorkflowSnapshot(a), argsOf, { scale: 10 });
  add('ours: + core insertPreparedIfPresent (adapter stubbed)', (a) => levels.core.persistWorkflowSnapshot(a), argsOf, { scale: 10 });
  add('ours: + store-kysely, its pool wrapper (pg Pool#connect stubbed)', (a) => levels['sk-pool'].persistWorkflowSnapshot(a), argsOf, { scale: 10, stub: 'connect' });
  add('ours: + pg-pool checkout/release (pg Client#query stubbed)', (a) => levels.sk.persistWorkflowSnapshot(a), argsOf, { scale: 10, stub: 'query' });
  add('ours: whole persist', (a) => levels.full.persistWorkflowSnapshot(a), argsOf);
  add('theirs: @mastra/pg whole persist', (a) => theirs.persistWorkflowSnapshot(a), argsOf);
  add('pool: pg Pool connect + release (as @mastra/pg)', async () => (await pool.connect()).release(), () => undefined, { scale: 10 });
  add('pool: pg Pool connect + release (store options)', async () => (await storePool.connect()).release(), () => undefined, { scale: 10 });
  add('stmt: conditional (16 p.), Pool.query', (p) => pool.query(peerSql, p), conditionalOf('c1'));
  add('stmt: conditional, Pool.query, store pool options', (p) => storePool.query(peerSql, p), conditionalOf('c2'));
  add('stmt: conditional, Client callback', (p) => callback(peerSql, p), conditionalOf('c3'));
  add('stmt: conditional, Client promise', (p) => client.query(peerSql, p), conditionalOf('c4'));
  add('stmt: floor insert (8 p.), Pool.query', (p) => pool.query(floorSql, p), floorOf('f1'));
  add('stmt: floor insert, Client callback', (p) => callback(floorSql, p), floorOf('f2'));
  add('stmt: their upsert (8 p.), Pool.query', (p) => pool.query(upsertSql, p), upsertOf);
  add('stmt: their upsert, Client callback', (p) => callback(upsertSql, p), upsertOf);
  // The JavaScript between round trips: each alone, and each followed by a round trip to the server.
  add('interplay: select 1, Client callback', () => callback('select 1', []), () => undefined);
  // (The stub answers pg Pool checkouts only; the select runs on the peers' own Client.)
  add('interplay: ours persist, Pool#connect stubbed, then select 1', async (a) => {
    await levels['sk-pool'].persistWorkflowSnapshot(a);
    await callback('select 1', []);
  }, argsOf, { stub: 'connect' });
  add('interplay: theirs JSON.stringify + check, then select 1', (s) => {
    /\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/.test(JSON.stringify(s));
    return callback('select 1', []);
  }, (i) => snapshot('run', i));
  // A wait of about a statement's wall time in which the server does no work: what waiting alone does to the JavaScript after it.
  add('interplay: select pg_sleep(0.0005), Client callback', () => callback('select pg_sleep(0.0005)', []), () => undefined);
  add('interplay: ours persist, Pool#connect stubbed, then pg_sleep(0.0005)', async (a) => {
    await levels['sk-pool'].persistWorkflowSnapshot(a);
    await callback('select pg_sleep(0.0005)', []);
  }, argsOf, { stub: 'connect' });
  add('interplay: ours persist, Pool#connect stubbed, then the conditional insert', async ([a, p]) => {
    await levels['sk-pool'].persistWorkflowSnapshot(a);
    await callback(peerSql, p);
  }, (i) => [argsOf(i), conditionalOf('c5')(i)], { stub: 'connect' });
  add('interplay: ours persist, store stubbed, then the conditional insert', async ([a, p]) => {
    await levels.domain.persistWorkflowSnapshot(a);
    await callback(peerSql, p);
  }, (i) => [argsOf(i), conditionalOf('c7')(i)]);
  add('interplay: core canonicalize + SHA-256, then the conditional insert', async ([payload, p]) => {
    sha256Hex(canonicalize(payload));
    await callback(peerSql, p);
  }, (i) => [payloadOf(i), conditionalOf('c6')(i)]);
  add('interplay: theirs JSON.stringify + check, then their upsert', ([s, p]) => {
    /\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/.test(JSON.stringify(s));
    return callback(upsertSql, p);
  }, (i) => [snapshot('run', i), upsertOf(i)]);

  await runLayerRounds(contenders, { rounds, perRound, stubs, seed: 57, levels: LEVELS.length, whole: ['ours: whole persist', 'theirs: @mastra/pg whole persist'] });
} finally {
  for (const close of closers.reverse()) await Promise.resolve().then(close).catch(() => undefined);
  for (const s of Object.values(schemas)) await admin.query(`drop schema if exists "${s}" cascade`);
  await admin.end();
}
