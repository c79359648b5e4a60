import { openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { BenchContext, Sample } from '../context.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function microsPerOp(count: number, op: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await op(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await op(i);
  return Number(process.hrtime.bigint() - start) / 1e3 / count;
}

/**
 * Latency of get, latest and a first page of list as the store grows to 1k, 100k and 1M rows.
 * Rows are added with one raw transaction per step into a store we created (same schema and
 * indexes), then reopened through the front door; 1,000 sessions of 200-byte payloads. Each size
 * is measured `reps` times on the same file, so the million rows are written once.
 */
export async function growth(ctx: BenchContext, reps: number): Promise<(Sample & { run: number })[]> {
  const dir = ctx.dir();
  const path = join(dir, 'growth.sqlite');
  (await openSqliteStore(path, { durability: 'normal' })).close();
  const samples: (Sample & { run: number })[] = [];
  let rows = 0;
  for (const size of [1_000, 100_000, 1_000_000].filter((s) => s <= ctx.growthMax)) {
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    const insert = db.prepare(
      'INSERT INTO checkpoints (namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)',
    );
    db.transaction(() => {
      for (; rows < size; rows++) {
        const text = `{"i":${rows},"messages":["${'x'.repeat(160)}"],"session":${rows % 1000}}`;
        const seconds = rows % 86_400;
        const createdAt = `2026-08-${String(1 + Math.floor(rows / 86_400) % 28).padStart(2, '0')}T${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}Z`;
        insert.run('bench', `s-${rows % 1000}`, 'manual', 'n', text, sha256(text), createdAt);
      }
    })();
    db.close();
    const store = await openSqliteStore(path, { durability: 'normal' });
    const label = size >= 1_000_000 ? '1M' : size >= 1000 && size < 100_000 ? '1k' : `${size / 1000}k`;
    for (let run = 0; run < reps; run++) {
      samples.push({ run, scenario: `growth: get by id`, impl: label, unit: 'µs/op', value: await microsPerOp(2000, (i) => store.get(1 + ((i * 7919) % size), { namespace: 'bench' })) });
      samples.push({ run, scenario: `growth: latest of a session`, impl: label, unit: 'µs/op', value: await microsPerOp(2000, (i) => store.latest(`s-${(i * 31) % 1000}`, { namespace: 'bench' })) });
      samples.push({ run, scenario: `growth: list first page (20)`, impl: label, unit: 'µs/op', value: await microsPerOp(500, () => store.list({ namespace: 'bench', limit: 20 })) });
    }
    await store.close();
  }
  return samples;
}
