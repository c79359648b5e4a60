#!/usr/bin/env node
/**
 * What one statement costs this process on PostgreSQL through store-kysely's adapter, against the
 * same SQL texts (captured from ours) through a bare pg Pool (pool.query, and a checked-out client for the transaction):
 * the client-side cost of our path (pool checkout, Kysely's executor, row mapping), without the
 * facade's verification. Per operation: µs of this process's CPU (user + system) and wall per call,
 * median over interleaved rounds, and statements sent (calls of pg's Client.query).
 *   get        adapter.getRow                       / pool.query(same select)
 *   refs       adapter.findBySourceRefs of two refs / pool.query(same select ... in)
 *   insert     adapter.transaction(tx.insert(row))  / BEGIN, our insert, COMMIT on one client
 *
 * After `npm run build`:
 *   SC_PG_URL=postgres://postgres@127.0.0.1:5432/test node tools/bench/scripts/pg-statement-cost.mjs [rounds=7] [callsPerRound=500]
 * SC_PG_COST_ONLY=ours|bare runs one side alone (for `node --cpu-prof`); SC_PG_COST_OPS=get,refs picks
 * operations; SC_PG_COST_BASELINE=<path of another build's store-kysely dist/index.js> adds that
 * build's adapter as a third contender ("baseline"), so a change is measured against the code before
 * it in the same run (build the old commit in a second worktree, or copy its dist before rebuilding).
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openPostgresAdapter } from '@session-checkpoint/store-kysely';

const pg = createRequire(import.meta.url)('pg');
const url = process.env.SC_PG_URL;
if (!url) throw new Error('set SC_PG_URL');
const rounds = Number(process.argv[2] ?? 7);
const perRound = Number(process.argv[3] ?? 500);
const only = process.env.SC_PG_COST_ONLY;
const opsOnly = process.env.SC_PG_COST_OPS?.split(',');

let sent = 0;
/** While set, the SQL texts and values sent, so the bare variants run our very statements. */
let captured;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (...args) {
  sent++;
  captured?.push(args);
  return query.apply(this, args);
};
/** The statements `fn` sends, as [text, values]. */
async function capture(fn) {
  captured = [];
  await fn();
  const out = captured;
  captured = undefined;
  return out;
}

const schema = `sc_stmt_${process.pid}`;
const adapter = await openPostgresAdapter(url, { schema, poolSize: 2 });
const baselinePath = process.env.SC_PG_COST_BASELINE;
const baseline = baselinePath ? await (await import(pathToFileURL(resolve(baselinePath)).href)).openPostgresAdapter(url, { schema, poolSize: 2 }) : undefined;
const pool = new pg.Pool({ connectionString: url, max: 2 });
const table = `"${schema}"."checkpoints"`;
const row = (i) => ({ namespace: 'ns', sessionId: `s${i % 10}`, kind: 'checkpoint', name: 'step', payloadJson: `{"i":${i}}`, payloadSha256: 'a'.repeat(64), createdAt: '2026-12-06T10:00:00Z', sourceRef: `ref/${String(i).padStart(8, '0')}` });
let seq = 0;
for (let i = 0; i < 200; i++) await adapter.insert(row(seq++));
const ids = (await pool.query(`select id from ${table} order by id`)).rows.map((r) => Number(r.id));
const pick = (i) => ids[i % ids.length];
const ref = (i) => `ref/${String(i % 200).padStart(8, '0')}`;
const [[getText]] = await capture(() => adapter.getRow(pick(0), 'ns'));
const [[refsText]] = await capture(() => adapter.findBySourceRefs('ns', [ref(0), ref(1)]));
const [, [insertText, insertValues]] = await capture(() => adapter.transaction((tx) => tx.insert(row(seq++))));
// Our insert's values: the row's eight columns, then the namespace and ref again, then the table name.
const insertParameters = (r) => [r.namespace, r.sessionId, r.kind, r.name, r.payloadJson, r.payloadSha256, r.createdAt, r.sourceRef, r.namespace, r.sourceRef, insertValues.at(-1)];
if (insertValues.length !== 11) throw new Error(`unexpected insert statement: ${insertText}`);

const ops = {
  get: {
    ours: (i) => adapter.getRow(pick(i), 'ns'),
    bare: (i) => pool.query(getText, [pick(i), 'ns']),
    baseline: (i) => baseline.getRow(pick(i), 'ns'),
  },
  refs: {
    ours: (i) => adapter.findBySourceRefs('ns', [ref(i), ref(i + 1)]),
    bare: (i) => pool.query(refsText, ['ns', ref(i), ref(i + 1)]),
    baseline: (i) => baseline.findBySourceRefs('ns', [ref(i), ref(i + 1)]),
  },
  insert: {
    ours: () => adapter.transaction((tx) => tx.insert(row(seq++))),
    baseline: () => baseline.transaction((tx) => tx.insert(row(seq++))),
    bare: async () => {
      const r = row(seq++);
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(insertText, insertParameters(r));
        await client.query('commit');
      } finally {
        client.release();
      }
    },
  },
};

const who = only ? [only] : baseline ? ['ours', 'baseline', 'bare'] : ['ours', 'bare'];
const results = {};
for (let round = 0; round < rounds; round++) {
  for (const [op, fns] of Object.entries(ops)) {
    if (opsOnly && !opsOnly.includes(op)) continue;
    for (let k = 0; k < who.length; k++) {
      const w = who[(k + round) % who.length];
      const fn = fns[w];
      for (let i = 0; i < 30; i++) await fn(i);
      sent = 0;
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < perRound; i++) await fn(i);
      const wall = Number(process.hrtime.bigint() - t0) / 1e3 / perRound;
      const c = process.cpuUsage(cpu0);
      ((results[op] ??= {})[w] ??= []).push({ cpu: (c.user + c.system) / perRound, user: c.user / perRound, system: c.system / perRound, wall, statements: sent / perRound });
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
for (const [op, byWho] of Object.entries(results)) {
  const line = Object.entries(byWho).map(([w, rs]) => `${w} ${median(rs.map((r) => r.cpu)).toFixed(0)} µs CPU (user ${median(rs.map((r) => r.user)).toFixed(0)}) / ${median(rs.map((r) => r.wall)).toFixed(0)} µs wall, ${median(rs.map((r) => r.statements))} statements`);
  console.log(`${op.padEnd(7)} ${line.join('   ')}`);
  // Per-round CPU ratios (the round's contenders ran back to back): above 1, ours costs more.
  for (const other of ['bare', 'baseline'].filter((w) => byWho[w] && byWho.ours)) {
    const ratios = byWho.ours.map((r, k) => r.cpu / byWho[other][k].cpu);
    console.log(`        ours / ${other} CPU ${median(ratios).toFixed(2)} [${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}]`);
  }
}
await pool.query(`drop schema "${schema}" cascade`);
await pool.end();
await adapter.close();
await baseline?.close();
