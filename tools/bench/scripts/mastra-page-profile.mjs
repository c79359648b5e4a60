#!/usr/bin/env node
// Drives Mastra's deep page (listMessages page 12 of 40 of a 1,000-message thread, with its total)
// for `node --cpu-prof` (issue 38 item 4, decision record 0051). Usage:
//   node --cpu-prof --cpu-prof-dir=DIR tools/bench/scripts/mastra-page-profile.mjs [ours|base|theirs] [sqlite|pg] [calls=2000]
// `base` runs the build in SC_MASTRA_BASELINE (a copy of packages/mastra/dist inside the repository);
// `theirs` is @mastra/libsql (sqlite) or @mastra/pg (pg, SC_PG_URL). Prints CPU µs per call.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const who = process.argv[2] ?? 'ours';
const backend = process.argv[3] ?? 'sqlite';
const calls = Number(process.argv[4] ?? 2000);
const dir = mkdtempSync(join(tmpdir(), 'mastra-page-profile-'));
const schema = `sc_mpage_${process.pid}`;
const text = (i, words) => `${words} ${i}: `.padEnd(560, 'lorem ipsum dolor sit amet ');
const message = (thread, i, role) => ({ id: `${thread}-${i}`, threadId: thread, resourceId: 'user-1', role, type: 'v2', createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000), content: { format: 2, parts: [{ type: 'text', text: text(i, role) }] } });

const dropSchema = async () => (await import('./drop-pg-schema.mjs')).dropSchema(process.env.SC_PG_URL, schema);

let memory;
let close = async () => undefined;
if (who === 'theirs' && backend === 'sqlite') {
  const { LibSQLStore } = await import('@mastra/libsql');
  const s = new LibSQLStore({ id: 'profile', url: `file:${join(dir, 'libsql.db')}` });
  await s.init();
  memory = await s.getStore('memory');
} else if (who === 'theirs') {
  const { PostgresStore } = await import('@mastra/pg');
  const s = new PostgresStore({ id: 'profile', connectionString: process.env.SC_PG_URL, schemaName: schema });
  await s.init();
  memory = await s.getStore('memory');
  close = async () => (await s.close?.(), await dropSchema());
} else {
  const { openSqliteStore, openPostgresStore } = await import('@session-checkpoint/store-kysely');
  const built = who === 'base' ? pathToFileURL(join(resolve(process.env.SC_MASTRA_BASELINE), 'index.js')).href : '@session-checkpoint/mastra';
  const { CheckpointMemoryStorage } = await import(built);
  const store = backend === 'sqlite' ? await openSqliteStore(join(dir, 'ours.sqlite'), { durability: 'normal' }) : await openPostgresStore(process.env.SC_PG_URL, { schema });
  memory = new CheckpointMemoryStorage(store);
  close = async () => (await store.close(), backend === 'pg' ? await dropSchema() : undefined);
}
const now = new Date();
await memory.saveThread({ thread: { id: 'big', resourceId: 'user-1', title: 'big', createdAt: now, updatedAt: now } });
for (let at = 0; at < 1000; at += 50) await memory.saveMessages({ messages: Array.from({ length: 50 }, (_, k) => message('big', at + k, (at + k) % 2 ? 'assistant' : 'user')) });
const page = async () => {
  const r = await memory.listMessages({ threadId: 'big', perPage: 40, page: 12 });
  if (r.messages.length !== 40 || r.messages[0].id !== 'big-480' || r.total !== 1000) throw new Error(`${who}: page 12 returned the wrong messages`);
};
for (let i = 0; i < 50; i++) await page();
const cpu0 = process.cpuUsage();
for (let i = 0; i < calls; i++) await page();
const used = process.cpuUsage(cpu0);
console.log(JSON.stringify({ who, backend, calls, cpuPerPage: (used.user + used.system) / calls }));
await close();
rmSync(dir, { recursive: true, force: true });
