// Quick throughput check (not a test): node src/test-support/quick-bench.mjs [pg]
// Compares the SQLite fast path (prepared statements) with the plain Kysely path on one file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore } from '@session-checkpoint/core';
import { KyselyAdapter, migrateToLatest, openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';

const payload = { text: 'x'.repeat(1000), n: 1 };

async function measure(label, store, creates = 2000, reads = 20000) {
  let t = performance.now();
  const ids = [];
  for (let i = 0; i < creates; i++) ids.push((await store.create({ namespace: 'b', sessionId: `s${i % 10}`, payload })).id);
  const createRate = creates / ((performance.now() - t) / 1000);
  t = performance.now();
  for (let i = 0; i < reads; i++) await store.get(ids[i % ids.length], { namespace: 'b' });
  const getRate = reads / ((performance.now() - t) / 1000);
  t = performance.now();
  for (let i = 0; i < reads; i++) await store.latest(`s${i % 10}`, { namespace: 'b' });
  const latestRate = reads / ((performance.now() - t) / 1000);
  t = performance.now();
  for (let i = 0; i < 20; i++) await store.list({ namespace: 'b', limit: 1000 });
  const listMs = (performance.now() - t) / 20;
  console.log(`${label.padEnd(34)} create ${createRate.toFixed(0).padStart(6)}/s  get ${getRate.toFixed(0).padStart(6)}/s  latest ${latestRate.toFixed(0).padStart(6)}/s  list(1000) ${listMs.toFixed(1)} ms`);
}

const dir = mkdtempSync(join(tmpdir(), 'sc-bench-'));
try {
  if (process.argv[2] === 'pg') {
    const schema = `sc_bench_${process.pid}`;
    const store = await openPostgresStore(process.env.SC_PG_URL, { schema });
    await measure('PostgreSQL', store, 1000, 5000);
    await store.close();
    const pg = (await import('pg')).default;
    const c = new pg.Client(process.env.SC_PG_URL);
    await c.connect();
    await c.query(`drop schema ${schema} cascade`);
    await c.end();
  } else {
    for (const durability of ['full', 'normal']) {
      const store = await openSqliteStore(join(dir, `${durability}.sqlite`), { durability });
      await measure(`SQLite fast path, ${durability}`, store);
      await store.close();
    }
    const database = new Database(join(dir, 'kysely.sqlite'));
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    const db = new Kysely({ dialect: new SqliteDialect({ database }) });
    await migrateToLatest(db);
    await measure('SQLite plain Kysely path, normal', new CheckpointStore(new KyselyAdapter(db, { ownsDatabase: true })));
    await db.destroy();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
