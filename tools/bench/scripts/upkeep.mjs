#!/usr/bin/env node
// Store upkeep on the 300-turn chat (issue 37 items 3-5): a SQLite store (and, with SC_PG_URL, a
// PostgreSQL schema) holding the bench's chat (src/chat-graph.ts, about 20 KB appended per turn)
// written by SessionCheckpointSaver: one thread of `turns` turns that goes idle, and one short
// thread that is pinned. Then, timed once each (wall ms): `stats`; the idle sweep
// (`expireIdle`, seen from 40 days later, so both threads are idle and the pinned one is kept);
// and `compact` (dry run, then VACUUM on SQLite; on PostgreSQL the report only). Prints one JSON
// document: rows and bytes per thread, the file (or relation) sizes before and after, and the times.
//
// Usage: [SC_PG_URL=postgres://...] node tools/bench/scripts/upkeep.mjs [turns=300]   (after `npm run build`)
// The same steps from the command line: session-checkpoint stats / prune --idle-for 30d --apply / compact --apply.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionCheckpointSaver, expireIdleThreads, pinThread } from '@session-checkpoint/langgraph';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import { chatGraph, userMessage } from '../dist/chat-graph.js';

const turns = Number(process.argv[2] ?? 300);
const later = new Date(Date.now() + 40 * 86_400_000);

async function time(fn) {
  const started = performance.now();
  const value = await fn();
  return { ms: Math.round(performance.now() - started), value };
}

async function run(name, store, fileSize) {
  const saver = new SessionCheckpointSaver(store);
  const write = async (thread, n) => {
    const graph = chatGraph(saver, 'plain');
    for (let turn = 0; turn < n; turn++) await graph.invoke({ messages: [userMessage(turn)] }, { configurable: { thread_id: thread } });
  };
  const written = await time(async () => {
    await write('idle-chat', turns);
    await write('pinned-chat', 10);
  });
  await pinThread(saver, 'pinned-chat');
  const stats = await time(() => store.stats());
  const threads = stats.value.namespaces.flatMap((ns) => ns.sessions.map((s) => ({ thread: s.sessionId, rows: s.rows, bytes: s.bytes, pinned: s.pinned })));
  const dry = await time(() => expireIdleThreads(saver, { idleFor: '30d', now: later }));
  const swept = await time(() => expireIdleThreads(saver, { idleFor: '30d', now: later, apply: true }));
  // PostgreSQL's dead-tuple counts reach pg_stat_user_tables a few seconds after the delete: wait for them (at most 20 s).
  for (let i = 0; i < 20 && name === 'postgres'; i++) {
    const report = await store.storageReport();
    if (report.relations.some((r) => r.deadTuples > 0)) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const compactDry = await time(() => store.compact());
  const compacted = await time(() => store.compact({ apply: true }));
  const result = {
    backend: name,
    turns,
    write_ms: written.ms,
    threads,
    stats_ms: stats.ms,
    storage_before_sweep: stats.value.storage,
    sweep_dry_run_ms: dry.ms,
    sweep_ms: swept.ms,
    swept: swept.value.expired.map((e) => ({ thread: e.sessionId, rows: e.deleted.length, bytes: e.bytes })),
    kept_pinned: swept.value.pinned.map((p) => p.sessionId),
    compact_dry_run_ms: compactDry.ms,
    reclaimable_bytes: compactDry.value.before?.reclaimableBytes ?? null,
    compact_ms: compacted.ms,
    compacted: compacted.value.compacted,
    storage_after: compacted.value.after ?? compacted.value.before,
    file_bytes_on_disk_after: fileSize?.() ?? null,
  };
  await store.close();
  return result;
}

const dir = mkdtempSync(join(tmpdir(), 'sc-upkeep-bench-'));
const results = [];
try {
  const path = join(dir, 'chat.sqlite');
  results.push(await run('sqlite', await openSqliteStore(path), () => statSync(path).size));
  if (process.env.SC_PG_URL) {
    const pg = (await import('pg')).default;
    const pool = new pg.Pool({ connectionString: process.env.SC_PG_URL, max: 4 });
    const schema = `sc_upkeep_bench_${process.pid}`;
    try {
      results.push(await run('postgres', await openPostgresStore(pool, { schema })));
    } finally {
      await pool.query(`drop schema if exists "${schema}" cascade`);
      await pool.end();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
