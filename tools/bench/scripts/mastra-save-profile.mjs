#!/usr/bin/env node
// Drives one-turn saveMessages into a thread of about 1,000 messages, for `node --cpu-prof`
// (issue 38 item 4, decision record 0042). Usage:
//   node --cpu-prof --cpu-prof-dir=DIR tools/bench/scripts/mastra-save-profile.mjs [ours|libsql|base] [saves=2000]
// (SC_MASTRA_RANDOM_IDS=1 for random message ids, below)
// `base` runs the build in SC_MASTRA_BASELINE (a copy of packages/mastra/dist inside the repository).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const who = process.argv[2] ?? 'ours';
const saves = Number(process.argv[3] ?? 2000);
const dir = mkdtempSync(join(tmpdir(), 'mastra-save-profile-'));
const text = (i, words) => `${words} ${i}: `.padEnd(560, 'lorem ipsum dolor sit amet ');
// SC_MASTRA_RANDOM_IDS=1: random UUIDs as message ids (what Mastra makes), so id-keyed index
// entries land anywhere in their index instead of after the previous save's.
const ids = new Map();
const idOf = (key) => (process.env.SC_MASTRA_RANDOM_IDS === '1' ? (ids.get(key) ?? ids.set(key, randomUUID()).get(key)) : key);
const message = (thread, i, role) => ({ id: idOf(`${thread}-${i}`), threadId: thread, resourceId: 'user-1', role, type: 'v2', createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000), content: { format: 2, parts: [{ type: 'text', text: text(i, role) }] } });

let memory;
let close = () => undefined;
if (who === 'libsql') {
  const { LibSQLStore } = await import('@mastra/libsql');
  const s = new LibSQLStore({ id: 'profile', url: `file:${join(dir, 'libsql.db')}` });
  await s.init();
  memory = await s.getStore('memory');
} else {
  const { openSqliteStore } = await import('@session-checkpoint/store-kysely');
  const built = who === 'base' ? pathToFileURL(join(resolve(process.env.SC_MASTRA_BASELINE), 'index.js')).href : '@session-checkpoint/mastra';
  const { CheckpointMemoryStorage } = await import(built);
  const store = await openSqliteStore(join(dir, 'ours.sqlite'), { durability: 'normal' });
  memory = new CheckpointMemoryStorage(store);
  close = () => store.close();
}
const now = new Date();
await memory.saveThread({ thread: { id: 'writes', resourceId: 'user-1', title: 'writes', createdAt: now, updatedAt: now } });
for (let at = 0; at < 1000; at += 50) await memory.saveMessages({ messages: Array.from({ length: 50 }, (_, k) => message('writes', at + k, (at + k) % 2 ? 'assistant' : 'user')) });
const first = 500;
const cpu0 = process.cpuUsage();
for (let t = first; t < first + saves; t++) await memory.saveMessages({ messages: [message('writes', 2 * t, 'user'), message('writes', 2 * t + 1, 'assistant')] });
const used = process.cpuUsage(cpu0);
console.log(JSON.stringify({ who, saves, cpuPerSave: (used.user + used.system) / saves }));
await close();
rmSync(dir, { recursive: true, force: true });
