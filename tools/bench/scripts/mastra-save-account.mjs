#!/usr/bin/env node
// Where the CPU of a one-turn Mastra saveMessages goes, inside the real call (issue 38 item 4,
// decision record 0042): 2,000 saves of two ~600-byte messages into a thread of 1,000, on SQLite
// (WAL, synchronous=NORMAL), with the store's, the adapter's, better-sqlite3's and MessageList's
// entry points wrapped to take their CPU time (process.cpuUsage) exclusive of the wrapped calls
// inside them, so the parts add up to the call. The two "domain" lines are what no other wrapper
// covers: the domain's own code (JSON round trip, refs, maps), the awaits between the parts, the
// garbage collector. The wrappers add some CPU of their own; read the shares. Usage (after npm run build):
//   node tools/bench/scripts/mastra-save-account.mjs [saves=2000] [dist=<a copy of packages/mastra/dist>]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuAccount } from './cpu-account.mjs';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { MessageList } from '@mastra/core/agent/message-list';

const saves = Number(process.argv[2] ?? 2000);
const mod = process.argv[3] ? await import(pathToFileURL(join(resolve(process.argv[3]), 'index.js')).href) : await import('@session-checkpoint/mastra');
const dir = mkdtempSync(join(tmpdir(), 'mastra-save-account-'));
const text = (i, w) => `${w} ${i}: `.padEnd(560, 'lorem ipsum dolor sit amet ');
const message = (thread, i, role) => ({ id: `${thread}-${i}`, threadId: thread, resourceId: 'user-1', role, type: 'v2', createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000), content: { format: 2, parts: [{ type: 'text', text: text(i, role) }] } });
const store = await openSqliteStore(join(dir, 'account.sqlite'), { durability: 'normal' });
const memory = new mod.CheckpointMemoryStorage(store);
await memory.saveThread({ thread: { id: 'writes', resourceId: 'user-1', title: 'w', createdAt: new Date(), updatedAt: new Date() } });
for (let at = 0; at < 1000; at += 50) await memory.saveMessages({ messages: Array.from({ length: 50 }, (_, k) => message('writes', at + k, (at + k) % 2 ? 'assistant' : 'user')) });
for (let t = 500; t < 600; t++) await memory.saveMessages({ messages: [message('writes', 2 * t, 'user'), message('writes', 2 * t + 1, 'assistant')] });

const { wrap, run, print, Database, statementProto } = cpuAccount();
const proto = Object.getPrototypeOf(store);
wrap(Database.prototype, 'exec', 'SQLite: BEGIN IMMEDIATE / COMMIT (exec, the commit writes the WAL)');
for (const m of ['run', 'all', 'get']) wrap(statementProto, m, 'SQLite: statements (native)');
wrap(Object.getPrototypeOf(store.adapter), 'insertMany', 'store-kysely: insertMany (JS)');
// The one-statement save (record 0044), where the build has it.
if (Object.getPrototypeOf(store.adapter).insertManyIfPresent) wrap(Object.getPrototypeOf(store.adapter), 'insertManyIfPresent', 'store-kysely: insertManyIfPresent (JS)');
if (proto.insertPreparedManyIfPresent) wrap(proto, 'insertPreparedManyIfPresent', 'core: insertPreparedManyIfPresent (JS)');
wrap(Object.getPrototypeOf(store.adapter), 'findBySourceRefs', 'store-kysely: findBySourceRefs (JS)');
wrap(Object.getPrototypeOf(store.adapter), 'listBySourceRefPrefix', 'store-kysely: listBySourceRefPrefix (JS)');
{
  // The function a transaction runs is the domain's (#writeMessages), with the store bound to the transaction.
  const adapterProto = Object.getPrototypeOf(store.adapter);
  const f = adapterProto.transaction;
  adapterProto.transaction = function (fn, ...rest) {
    const holder = { fn };
    wrap(holder, 'fn', 'domain inside the transaction (#writeMessages: refs, maps, awaits)');
    return f.call(this, (tx) => holder.fn(tx), ...rest);
  };
  wrap(adapterProto, 'transaction', 'store-kysely: transaction (JS: queue, BEGIN/COMMIT calls)');
}
wrap(proto, 'prepare', 'core: prepare (validation, canonical JSON, SHA-256)');
wrap(proto, 'insertPreparedMany', 'core: insertPreparedMany (JS)');
wrap(proto, 'findBySourceRefs', 'core: findBySourceRefs (verification)');
wrap(proto, 'listBySourceRefPrefix', 'core: listBySourceRefPrefix (verification)');
wrap(proto, 'transaction', 'core: transaction (JS)');
wrap(MessageList.prototype, 'add', "MessageList on the return (common: @mastra/libsql's save does it too)");
wrap(memory, 'saveMessages', 'domain outside a transaction (JSON round trip of the messages, the one-statement save\'s rows, the answer)');

const total = await run(saves, (i) => memory.saveMessages({ messages: [message('writes', 2 * (600 + i), 'user'), message('writes', 2 * (600 + i) + 1, 'assistant')] }));
await store.close();
rmSync(dir, { recursive: true, force: true });
print(`${process.argv[3] ?? 'this build'}, per save`, saves, total);
