#!/usr/bin/env node
// Saving a growing AI SDK chat (issue 38): createChatStore's saveChat against the recipe the AI SDK's
// docs give (the whole UIMessage[] written as JSON on every save: a file per chat), and the same
// recipe in a SQLite row per chat (an upsert of the whole JSON). Each save adds one turn (a user and
// an assistant message, about 600 bytes each) to a chat of 10, 100 or 1,000 messages: the cost of a
// save as the chat grows. Contenders, each in a fresh child process per run, in rotating order:
//   ours-warm     saveChat in the process that saved the chats before (its hash memo has seen the messages)
//   ours-cold     saveChat in a new process (the chats were saved by another one: a serverless function's
//                 first call, whose memo has seen nothing)
//   recipe-file   writeFile(chat.json, JSON.stringify(messages))
//   recipe-sqlite INSERT ... ON CONFLICT DO UPDATE of the whole JSON in one row (WAL, synchronous=NORMAL)
// Our store runs on SQLite in WAL mode at synchronous=NORMAL (durability "normal"). Each chat is
// filled first (not timed); then one timed save per chat, over 30 chats, as CPU time of the process
// (process.cpuUsage, user + system) and wall time. Prints one JSON line per run and contender, then
// medians and ratios (recipe / ours: above 1, ours is cheaper).
//
// Usage: node tools/bench/scripts/ai-sdk-chat-save.mjs [runs=5] [sizes=10,100,1000] (Node 22+, after `npm run build`)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONTENDERS = ['ours-warm', 'ours-cold', 'recipe-file', 'recipe-sqlite'];
const CHATS = 30;
/** Message i of a chat: about 600 bytes of JSON, users and assistants in turn. */
const message = (chat, i) => ({ id: `${chat}-${i}`, role: i % 2 ? 'assistant' : 'user', parts: [{ type: 'text', text: `message ${i} `.padEnd(560, 'lorem ipsum dolor sit amet '), ...(i % 2 ? { state: 'done' } : {}) }] });
const chatOf = (c, n) => Array.from({ length: n }, (_, i) => message(`c${c}`, i));

if (process.env.SC_CHAT_BENCH_FILL) {
  await fill(Number(process.env.SC_CHAT_BENCH_SIZE), process.env.SC_CHAT_BENCH_DIR);
} else if (process.env.SC_CHAT_BENCH_CHILD) {
  await child(process.env.SC_CHAT_BENCH_CHILD, Number(process.env.SC_CHAT_BENCH_SIZE), process.env.SC_CHAT_BENCH_DIR);
} else {
  const runs = Number(process.argv[2] ?? 5);
  const sizes = (process.argv[3] ?? '10,100,1000').split(',').map(Number);
  const dir = mkdtempSync(join(tmpdir(), 'sc-chat-bench-'));
  const results = new Map();
  try {
    for (let run = 0; run < runs; run++) {
      for (const size of sizes) {
        for (let i = 0; i < CONTENDERS.length; i++) {
          const who = CONTENDERS[(i + run) % CONTENDERS.length];
          const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, SC_CHAT_BENCH_CHILD: who, SC_CHAT_BENCH_SIZE: String(size), SC_CHAT_BENCH_DIR: join(dir, `${who}-${size}-${run}`) }, encoding: 'utf8' });
          const result = JSON.parse(out.trim().split('\n').pop());
          console.log(JSON.stringify({ run, size, contender: who, ...result }));
          const key = `${who}@${size}`;
          results.set(key, [...(results.get(key) ?? []), result]);
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  console.log('\nmedians, µs per save (CPU / wall):');
  for (const size of sizes) console.log(`  ${String(size).padStart(5)} messages  ${CONTENDERS.map((c) => `${c} ${median(results.get(`${c}@${size}`).map((r) => r.cpu)).toFixed(0)} / ${median(results.get(`${c}@${size}`).map((r) => r.wall)).toFixed(0)}`).join('   ')}`);
  console.log('\nratios of CPU per save (recipe / ours; above 1, ours is cheaper), median of per-run ratios [min-max]:');
  for (const size of sizes) {
    for (const ours of ['ours-warm', 'ours-cold']) {
      for (const recipe of ['recipe-file', 'recipe-sqlite']) {
        const xs = results.get(`${ours}@${size}`).map((r, i) => results.get(`${recipe}@${size}`)[i].cpu / r.cpu);
        console.log(`  ${String(size).padStart(5)} messages  ${recipe} / ${ours}  ${median(xs).toFixed(2)}x [${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}]`);
      }
    }
  }
  console.log('\ngrowth of CPU per save from 10 to 1,000 messages (median):');
  for (const c of CONTENDERS) if (results.has(`${c}@10`) && results.has(`${c}@1000`)) console.log(`  ${c.padEnd(14)} ${(median(results.get(`${c}@1000`).map((r) => r.cpu)) / median(results.get(`${c}@10`).map((r) => r.cpu))).toFixed(1)}x`);
}


/** Saves the chats with our store (for ours-cold, in a process of its own). */
async function fill(size, dir) {
  const { openSqliteStore } = await import('@session-checkpoint/store-kysely');
  const { createChatStore } = await import('@session-checkpoint/ai-sdk');
  const store = await openSqliteStore(join(dir, 'chats.sqlite'), { durability: 'normal' });
  const chats = createChatStore(store);
  for (let c = 0; c < CHATS; c++) await chats.saveChat({ chatId: `c${c}`, messages: chatOf(c, size) });
  await store.close();
  return chats;
}

async function child(who, size, dir) {
  mkdirSync(dir, { recursive: true });
  let save;
  let close = async () => undefined;
  if (who.startsWith('ours')) {
    const { openSqliteStore } = await import('@session-checkpoint/store-kysely');
    const { createChatStore } = await import('@session-checkpoint/ai-sdk');
    if (who === 'ours-warm') await fill(size, dir);
    else execFileSync(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, SC_CHAT_BENCH_FILL: '1', SC_CHAT_BENCH_SIZE: String(size), SC_CHAT_BENCH_DIR: dir } });
    const store = await openSqliteStore(join(dir, 'chats.sqlite'), { durability: 'normal' });
    const chats = createChatStore(store);
    save = (c, messages) => chats.saveChat({ chatId: `c${c}`, messages });
    close = () => store.close();
  } else if (who === 'recipe-file') {
    const { writeFile } = await import('node:fs/promises');
    for (let c = 0; c < CHATS; c++) writeFileSync(join(dir, `c${c}.json`), JSON.stringify(chatOf(c, size), null, 2));
    save = (c, messages) => writeFile(join(dir, `c${c}.json`), JSON.stringify(messages, null, 2));
  } else {
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(join(dir, 'recipe.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec('CREATE TABLE chats (id TEXT PRIMARY KEY, messages TEXT NOT NULL)');
    const upsert = db.prepare('INSERT INTO chats (id, messages) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET messages = excluded.messages');
    for (let c = 0; c < CHATS; c++) upsert.run(`c${c}`, JSON.stringify(chatOf(c, size)));
    save = async (c, messages) => upsert.run(`c${c}`, JSON.stringify(messages));
    close = async () => db.close();
  }
  // Each save gets the list as a route handler has it: parsed from the request's JSON.
  const lists = Array.from({ length: CHATS }, (_, c) => JSON.parse(JSON.stringify([...chatOf(c, size), message(`c${c}`, size), message(`c${c}`, size + 1)])));
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let c = 0; c < CHATS; c++) await save(c, lists[c]);
  const wall = Number(process.hrtime.bigint() - t0) / 1e3 / CHATS;
  const used = process.cpuUsage(cpu0);
  await close();
  console.log(JSON.stringify({ cpu: (used.user + used.system) / CHATS, wall }));
}
