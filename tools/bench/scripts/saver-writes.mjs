#!/usr/bin/env node
// The calls of the langgraphSaver scenario on one saver in this process, for a CPU profile of one
// put and one putWrites (issue 39, decision record 0023): a chain of `count` checkpoints where one
// of three 1 KiB channels changes per put, then `count` putWrites of two writes. Prints the CPU per
// call; run it under `node --cpu-prof` and read the profile with profile-summary.mjs.
//
// Usage: [SC_PG_URL=...] node [--cpu-prof] tools/bench/scripts/saver-writes.mjs ours|peer sqlite|postgres [count=2000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uuid6 } from '@langchain/langgraph-checkpoint';
import { agentState } from '../dist/payloads.js';

const [who = 'ours', backend = 'sqlite', countArg = '2000'] = process.argv.slice(2);
const count = Number(countArg);
const dir = mkdtempSync(join(tmpdir(), 'sc-saver-writes-'));
const schema = `saver_writes_${process.pid}`;
let saver;
let close;
if (backend === 'postgres') {
  const url = process.env.SC_PG_URL;
  if (!url) throw new Error('set SC_PG_URL');
  if (who === 'ours') {
    const { openPostgresStore } = await import('@session-checkpoint/store-kysely');
    const { SessionCheckpointSaver } = await import('@session-checkpoint/langgraph');
    const store = await openPostgresStore(url, { schema, poolSize: 2 });
    saver = new SessionCheckpointSaver(store);
    close = async () => {
      await store.close();
    };
  } else {
    const { PostgresSaver } = await import('@langchain/langgraph-checkpoint-postgres');
    saver = PostgresSaver.fromConnString(url, { schema });
    await saver.setup();
    close = () => saver.end();
  }
} else if (who === 'ours') {
  const { openSqliteStore } = await import('@session-checkpoint/store-kysely');
  const { SessionCheckpointSaver } = await import('@session-checkpoint/langgraph');
  const store = await openSqliteStore(join(dir, 'ours.sqlite'), { durability: 'normal' });
  saver = new SessionCheckpointSaver(store);
  close = () => store.close();
} else {
  const { SqliteSaver } = await import('@langchain/langgraph-checkpoint-sqlite');
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(dir, 'peer.sqlite'));
  saver = new SqliteSaver(db);
  saver.setup();
  db.pragma('synchronous = NORMAL');
  close = async () => db.close();
}

const profile = agentState(1024, 1);
const tools = agentState(1024, 2);
let config = { configurable: { thread_id: 't', checkpoint_ns: '' } };
const ids = [];
const cpu = () => ((u) => (u.user + u.system) / 1000)(process.cpuUsage());
let t = cpu();
for (let i = 0; i < count; i++) {
  const checkpoint = { v: 4, id: uuid6(-1), ts: new Date().toISOString(), channel_values: { messages: agentState(1024, i), profile, tools }, channel_versions: { messages: i + 1, profile: 1, tools: 1 }, versions_seen: { agent: { messages: i } } };
  config = await saver.put(config, checkpoint, { source: 'loop', step: i, parents: {} }, i === 0 ? { messages: 1, profile: 1, tools: 1 } : { messages: i + 1 });
  ids.push(checkpoint.id);
}
const putMs = cpu() - t;
const writes = [['messages', agentState(512, 3)], ['branch:to:tools', null]];
t = cpu();
for (let i = 0; i < count; i++) await saver.putWrites({ configurable: { thread_id: 't', checkpoint_ns: '', checkpoint_id: ids[0] } }, writes, `task-${i}`);
const putWritesMs = cpu() - t;
await close();
if (backend === 'postgres') {
  const pg = (await import('pg')).default;
  const admin = new pg.Client({ connectionString: process.env.SC_PG_URL });
  await admin.connect();
  await admin.query(`drop schema if exists "${schema}" cascade`);
  await admin.end();
}
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ who, backend, count, cpuUsPerPut: (putMs * 1000) / count, cpuUsPerPutWrites: (putWritesMs * 1000) / count }));
