import { openPostgresStore } from '@session-checkpoint/store-kysely';
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { BenchContext, Sample } from '../context.js';
import { n } from '../context.js';
import { agentState } from '../payloads.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Runs `total` calls of `op` spread over `clients` concurrent loops; returns ops/s. */
async function concurrentOps(clients: number, total: number, op: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) await op(next++);
    }),
  );
  return total / (Number(process.hrtime.bigint() - start) / 1e9);
}

/**
 * PostgreSQL create and get with 1 and 8 concurrent clients: our store beside the raw floor (pg
 * with the same INSERT/SELECT, JSON.stringify and sha256), both on the same table of a schema made
 * for the run and dropped after it.
 */
export async function postgres(ctx: BenchContext): Promise<Sample[]> {
  if (!ctx.pgUrl) return [];
  const schema = `sc_bench_${process.pid}_${Date.now().toString(36)}`;
  const store = await openPostgresStore(ctx.pgUrl, { schema, poolSize: 10 });
  const pool = new pg.Pool({ connectionString: ctx.pgUrl, max: 10 });
  const table = `"${schema}".checkpoints`;
  const payloads = Array.from({ length: 16 }, (_, i) => agentState(1024, i));
  const samples: Sample[] = [];
  try {
    for (const clients of [1, 8]) {
      const writes = n(ctx, clients === 1 ? 600 : 1500);
      const ids: number[] = [];
      samples.push({
        scenario: `PostgreSQL create 1KiB, ${clients} client(s)`,
        impl: 'session-checkpoint',
        unit: 'ops/s',
        value: await concurrentOps(clients, writes, async (i) => ids.push((await store.create({ namespace: 'bench', sessionId: `s-${i % 8}`, payload: payloads[i & 15]!, createdAt: '2026-08-08T07:00:00Z' })).id)),
      });
      samples.push({
        scenario: `PostgreSQL create 1KiB, ${clients} client(s)`,
        impl: 'raw floor (pg)',
        unit: 'ops/s',
        value: await concurrentOps(clients, writes, async (i) => {
          const text = JSON.stringify(payloads[i & 15]);
          await pool.query({
            name: 'floor-insert',
            text: `INSERT INTO ${table} (namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL) RETURNING id`,
            values: ['floor', `s-${i % 8}`, 'manual', 'n', text, sha256(text), '2026-08-08T07:00:00Z'],
          });
        }),
      });
      const reads = n(ctx, clients === 1 ? 1500 : 4000);
      samples.push({
        scenario: `PostgreSQL get 1KiB, ${clients} client(s)`,
        impl: 'session-checkpoint',
        unit: 'ops/s',
        value: await concurrentOps(clients, reads, (i) => store.get(ids[(i * 7919) % ids.length]!, { namespace: 'bench' })),
      });
      samples.push({
        scenario: `PostgreSQL get 1KiB, ${clients} client(s)`,
        impl: 'raw floor (pg)',
        unit: 'ops/s',
        value: await concurrentOps(clients, reads, async (i) => {
          const result = await pool.query({ name: 'floor-get', text: `SELECT * FROM ${table} WHERE id = $1 AND namespace = $2`, values: [ids[(i * 7919) % ids.length], 'bench'] });
          const row = result.rows[0] as { payload_json: string; payload_sha256: string };
          if (sha256(row.payload_json) !== row.payload_sha256) throw new Error('hash mismatch');
          JSON.parse(row.payload_json);
        }),
      });
    }
  } finally {
    await store.close();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
  return samples;
}
