#!/usr/bin/env node
// The JavaScript of Mastra's deep page on PostgreSQL without the statement (decision record 0051):
// page 12 of 40 of a 1,000-message thread, with its total, where the adapter's
// `listBySourceRefRanges` answers from rows it read once (fresh copies each call), so the CPU
// measured is the store's verification, the domain's conversion and MessageList only, free of
// pg's protocol work and the server's noise. For before/after comparisons of the domain's read
// path. Usage:
//   node tools/bench/scripts/mastra-page-js.mjs [ours|base] [calls=4000]
// `base` runs the build in SC_MASTRA_BASELINE (a copy of packages/mastra/dist inside the repository).
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const who = process.argv[2] ?? 'ours';
const calls = Number(process.argv[3] ?? 4000);
const schema = `sc_mpagejs_${process.pid}`;
const text = (i, words) => `${words} ${i}: `.padEnd(560, 'lorem ipsum dolor sit amet ');
const message = (thread, i, role) => ({ id: `${thread}-${i}`, threadId: thread, resourceId: 'user-1', role, type: 'v2', createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000), content: { format: 2, parts: [{ type: 'text', text: text(i, role) }] } });

const { openPostgresStore } = await import('@session-checkpoint/store-kysely');
const built = who === 'base' ? pathToFileURL(join(resolve(process.env.SC_MASTRA_BASELINE), 'index.js')).href : '@session-checkpoint/mastra';
const { CheckpointMemoryStorage } = await import(built);
const store = await openPostgresStore(process.env.SC_PG_URL, { schema });
const memory = new CheckpointMemoryStorage(store);
const now = new Date();
await memory.saveThread({ thread: { id: 'big', resourceId: 'user-1', title: 'big', createdAt: now, updatedAt: now } });
for (let at = 0; at < 1000; at += 50) await memory.saveMessages({ messages: Array.from({ length: 50 }, (_, k) => message('big', at + k, (at + k) % 2 ? 'assistant' : 'user')) });
const adapter = store.adapter;
const read = adapter.listBySourceRefRanges.bind(adapter);
let kept;
adapter.listBySourceRefRanges = async (queries) => {
  kept ??= await read(queries);
  return kept.map((rows) => rows.map((r) => ({ ...r })));
};
const page = async () => {
  const r = await memory.listMessages({ threadId: 'big', perPage: 40, page: 12 });
  if (r.messages.length !== 40 || r.messages[0].id !== 'big-480' || r.total !== 1000) throw new Error(`${who}: page 12 returned the wrong messages`);
};
for (let i = 0; i < 200; i++) await page();
const cpu0 = process.cpuUsage();
for (let i = 0; i < calls; i++) await page();
const used = process.cpuUsage(cpu0);
console.log(JSON.stringify({ who, calls, cpuPerPage: +((used.user + used.system) / calls).toFixed(1) }));
await store.close();
await (await import('./drop-pg-schema.mjs')).dropSchema(process.env.SC_PG_URL, schema);
