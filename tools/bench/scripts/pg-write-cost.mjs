/**
 * What one put and one putWrites cost on PostgreSQL, ours against PostgresSaver, with one client:
 * the calls of the langgraphSaver scenario (a chain where one of three 1 KiB channels changes per
 * put; two pending writes per putWrites), run in interleaved rounds so that the machine's drift
 * hits every saver alike. Ours runs twice, as by default (unnamed statements) and with
 * `preparedStatements: true`, so the statement naming is measured in the same run.
 *
 * Per saver and operation: ops/s (median and range over rounds), the per-round ratio to
 * PostgresSaver, statements sent per operation (calls of pg's Client.query), and CPU per operation
 * of this process and of the server backends serving the saver (read from /proc, so only when the
 * server runs on this host; "n/a" otherwise). Wall time on a shared machine is mostly the commit's
 * WAL flush and scheduling; the CPU columns are what the saver's own work costs.
 *
 * After building (npx nx run-many -t build -p @session-checkpoint/bench):
 *   SC_PG_URL=postgres://postgres@127.0.0.1:5432/test node tools/bench/scripts/pg-write-cost.mjs [rounds] [opsPerRound]
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { uuid6 } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { SessionCheckpointSaver } from '@session-checkpoint/langgraph';
import { openPostgresStore } from '@session-checkpoint/store-kysely';
import { agentState } from '../dist/payloads.js';

const pg = createRequire(import.meta.url)('pg');
const url = process.env.SC_PG_URL;
if (!url) throw new Error('set SC_PG_URL');
const rounds = Number(process.argv[2] ?? 12);
const perRound = Number(process.argv[3] ?? 100);
const withApp = (app) => `${url}${url.includes('?') ? '&' : '?'}application_name=${app}`;

// Statements sent, counted per client's application name.
const sent = new Map();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (...args) {
  const app = this.connectionParameters?.application_name;
  sent.set(app, (sent.get(app) ?? 0) + 1);
  return query.apply(this, args);
};

const admin = new pg.Client({ connectionString: url });
await admin.connect();
const tag = `${process.pid}`;
const names = { prepared: 'ours, preparedStatements true', unprepared: 'ours', peer: 'PostgresSaver' };
const apps = { prepared: `wc_p_${tag}`, unprepared: `wc_u_${tag}`, peer: `wc_g_${tag}` };
const schemas = { prepared: `wc_p_${tag}`, unprepared: `wc_u_${tag}`, peer: `wc_g_${tag}` };
const stores = {
  prepared: await openPostgresStore(withApp(apps.prepared), { schema: schemas.prepared, poolSize: 2, preparedStatements: true }),
  unprepared: await openPostgresStore(withApp(apps.unprepared), { schema: schemas.unprepared, poolSize: 2, preparedStatements: false }),
};
await admin.query(`create schema "${schemas.peer}"`);
const savers = { prepared: new SessionCheckpointSaver(stores.prepared), unprepared: new SessionCheckpointSaver(stores.unprepared), peer: PostgresSaver.fromConnString(withApp(apps.peer), { schema: schemas.peer }) };
await savers.peer.setup();

/** Server CPU (µs) of the backends with this application name, or NaN when they are not on this host. */
async function backendCpu(app) {
  const { rows } = await admin.query('select pid from pg_stat_activity where application_name = $1', [app]);
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return NaN;
    }
  }
  return ticks * 10_000; // USER_HZ 100
}
const processCpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

const chains = {};
const profile = agentState(1024, 1);
const tools = agentState(1024, 2);
async function puts(key, count) {
  const chain = (chains[key] ??= { config: { configurable: { thread_id: 't', checkpoint_ns: '' } }, i: 0, first: undefined });
  for (let k = 0; k < count; k++, chain.i++) {
    const i = chain.i;
    const checkpoint = { v: 4, id: uuid6(-1), ts: new Date().toISOString(), channel_values: { messages: agentState(1024, i), profile, tools }, channel_versions: { messages: i + 1, profile: 1, tools: 1 }, versions_seen: { agent: { messages: i } } };
    chain.config = await savers[key].put(chain.config, checkpoint, { source: 'loop', step: i, parents: {} }, i === 0 ? { messages: 1, profile: 1, tools: 1 } : { messages: i + 1 });
    chain.first ??= checkpoint.id;
  }
}
const writes = [['messages', agentState(512, 3)], ['branch:to:tools', null]];
let task = 0;
async function putWrites(key, count) {
  const first = { configurable: { thread_id: 't', checkpoint_ns: '', checkpoint_id: chains[key].first } };
  for (let k = 0; k < count; k++) await savers[key].putWrites(first, writes, `task-${task++}`);
}

const ops = { put: puts, putWrites };
const results = {};
async function measure(op, key) {
  const r = (results[`${op}|${key}`] ??= { rates: [], client: 0, server: 0, sent: 0, n: 0 });
  const server = await backendCpu(apps[key]);
  const client = processCpu();
  const before = sent.get(apps[key]) ?? 0;
  const start = process.hrtime.bigint();
  await ops[op](key, perRound);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  r.client += processCpu() - client;
  r.sent += (sent.get(apps[key]) ?? 0) - before;
  r.server += (await backendCpu(apps[key])) - server;
  r.n += perRound;
  r.rates.push(perRound / seconds);
}

const keys = Object.keys(savers);
for (const key of keys) {
  await puts(key, 20);
  await putWrites(key, 20);
}
for (let round = 0; round < rounds; round++) {
  // Every order of the three in turn.
  const order = [[0, 1, 2], [2, 1, 0], [1, 2, 0], [0, 2, 1], [2, 0, 1], [1, 0, 2]][round % 6].map((i) => keys[i]);
  for (const op of Object.keys(ops)) for (const key of order) await measure(op, key);
}

const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
const range = (v) => `${Math.min(...v).toFixed(2)}-${Math.max(...v).toFixed(2)}`;
console.log(`${rounds} rounds x ${perRound} ops, ${new Date().toISOString()}, Node ${process.version}`);
console.log('| operation | saver | ops/s median (min-max) | vs PostgresSaver, per round: median (min-max) | statements per op | client CPU µs/op | server CPU µs/op |');
console.log('|---|---|---|---|---|---|---|');
for (const op of Object.keys(ops)) {
  const peer = results[`${op}|peer`];
  for (const key of keys) {
    const r = results[`${op}|${key}`];
    const ratios = r.rates.map((v, i) => v / peer.rates[i]);
    const server = Number.isNaN(r.server) ? 'n/a' : (r.server / r.n).toFixed(0);
    console.log(`| ${op} | ${names[key]} | ${median(r.rates).toFixed(0)} (${Math.min(...r.rates).toFixed(0)}-${Math.max(...r.rates).toFixed(0)}) | ${key === 'peer' ? '' : `${median(ratios).toFixed(2)} (${range(ratios)})`} | ${(r.sent / r.n).toFixed(2)} | ${(r.client / r.n).toFixed(0)} | ${server} |`);
  }
}

await stores.prepared.close();
await stores.unprepared.close();
await savers.peer.end();
for (const schema of Object.values(schemas)) await admin.query(`drop schema if exists "${schema}" cascade`);
await admin.end();
