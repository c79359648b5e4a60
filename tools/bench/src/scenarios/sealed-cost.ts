/**
 * Issue 36, item 8: what sealing and encryption cost. The same 1 KiB agent states are created and
 * read back through a plain store and through stores opened with keys (compressed envelopes, the
 * default, and uncompressed), each on storage of its own, back to back in one run, the contender
 * measured first rotating from run to run (docs/decisions/0019-bench-method.md). Measured:
 * CPU time of this process per call (`process.cpuUsage`: the shared machine's load moves wall
 * time far more than CPU time) and wall time per call, for create, get by id (with the store's
 * memo, and with every read checked from scratch: `verifiedTextCache: 0`) and latest; and the
 * bytes stored (every column of every row, plus the metadata entries the heads add).
 *
 * SQLite runs at both durabilities: at "full" (the default) a create waits for fsync, which CPU
 * time leaves out; at "normal" the store's own work is most of a create. PostgreSQL runs when
 * SC_PG_URL is set; there the client's CPU leaves the server's work out, and wall time is what
 * a caller waits for.
 *
 *   node tools/bench/dist/main.js --only sealedCost --runs 5 --no-write
 */
import { CheckpointStore, Keyring } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';
import type { RatioSpec } from '../targets.js';
import { n, type BenchContext, type Sample } from '../context.js';
import { agentState } from '../payloads.js';

/** The contenders: a plain store and two sealed ones. */
const CONTENDERS = ['plain', 'sealed', 'sealed, uncompressed'] as const;
type Contender = (typeof CONTENDERS)[number];

const BACKENDS = ['SQLite (full)', 'SQLite (normal)', 'PostgreSQL'] as const;
type Backend = (typeof BACKENDS)[number];

/** What is measured, per call: CPU and wall time of each operation. */
const OPERATIONS = ['create', 'get', 'get, every read checked', 'latest'] as const;

const scenarioName = (backend: Backend, operation: string, what: 'CPU' | 'wall' | 'bytes') =>
  what === 'bytes' ? `sealed cost: ${backend} bytes stored` : `sealed cost: ${backend} ${operation} 1KiB (${what})`;

/** The bars: sealed and encrypted at most 1.15x the time of plain, bytes at most 1.1x. */
export const SEALED_RATIOS: RatioSpec[] = BACKENDS.flatMap((backend): RatioSpec[] => {
  const timed = backend === 'PostgreSQL' ? 'wall' : 'CPU';
  return [
    ...(['create', 'get'] as const).map((operation): RatioSpec => ({
      label: `${scenarioName(backend, operation, timed)}, sealed / plain`,
      scenario: scenarioName(backend, operation, timed),
      numerator: 'sealed',
      denominator: 'plain',
      direction: 'at most',
      target: 1.15,
    })),
    ...OPERATIONS.flatMap((operation) =>
      (['CPU', 'wall'] as const)
        .filter((what) => !((operation === 'create' || operation === 'get') && what === timed))
        .map((what): RatioSpec => ({ label: `${scenarioName(backend, operation, what)}, sealed / plain`, scenario: scenarioName(backend, operation, what), numerator: 'sealed', denominator: 'plain', direction: 'at most' })),
    ),
    ...OPERATIONS.map((operation): RatioSpec => ({
      label: `${scenarioName(backend, operation, timed)}, sealed uncompressed / plain`,
      scenario: scenarioName(backend, operation, timed),
      numerator: 'sealed, uncompressed',
      denominator: 'plain',
      direction: 'at most',
    })),
    { label: `${scenarioName(backend, '', 'bytes')}, sealed / plain`, scenario: scenarioName(backend, '', 'bytes'), numerator: 'sealed', denominator: 'plain', direction: 'at most', target: 1.1 },
    { label: `${scenarioName(backend, '', 'bytes')}, sealed uncompressed / plain`, scenario: scenarioName(backend, '', 'bytes'), numerator: 'sealed, uncompressed', denominator: 'plain', direction: 'at most' },
  ];
});

/** Rotates which contender goes first, run after run. */
let rotation = 0;

/** CPU and wall microseconds per call of `op`, after 20 untimed calls. */
async function perCall(count: number, op: (i: number) => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  for (let i = 0; i < 20; i++) await op(-1 - i);
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await op(i);
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / count, wall: Number(process.hrtime.bigint() - start) / 1e3 / count };
}

const keys = Keyring.generate('bench');
const options = (contender: Contender) => (contender === 'plain' ? {} : { keys, ...(contender === 'sealed, uncompressed' ? { compress: false } : {}) });

/** Bytes of every column of every row and of every metadata entry, as the database counts them. */
const SQLITE_BYTES = `select (select coalesce(sum(length(cast(namespace as blob)) + length(cast(session_id as blob)) + length(cast(kind as blob)) + length(cast(name as blob))
  + length(cast(payload_json as blob)) + length(cast(payload_sha256 as blob)) + length(cast(created_at as blob)) + coalesce(length(cast(source_ref as blob)), 0) + 8), 0) from checkpoints)
  + (select coalesce(sum(length(cast(key as blob)) + length(cast(value as blob))), 0) from checkpoint_meta) as bytes`;
const pgBytes = (schema: string) => `select (select coalesce(sum(octet_length(namespace) + octet_length(session_id) + octet_length(kind) + octet_length(name) + octet_length(payload_json)
  + octet_length(payload_sha256) + octet_length(created_at) + coalesce(octet_length(source_ref), 0) + 8), 0) from "${schema}".checkpoints)
  + (select coalesce(sum(octet_length(key) + octet_length(value)), 0) from "${schema}".checkpoint_meta) as bytes`;

async function measure(ctx: BenchContext, backend: Backend, contender: Contender): Promise<Sample[]> {
  const payloads = Array.from({ length: 16 }, (_, i) => agentState(1024, i));
  const samples: Sample[] = [];
  const postgres = backend === 'PostgreSQL';
  const schema = `sc_bench_sealed_${process.pid}_${Date.now().toString(36)}_${CONTENDERS.indexOf(contender)}`;
  const path = postgres ? '' : join(ctx.dir(), 'store.sqlite');
  const open = (extra: { verifiedTextCache?: number } = {}): Promise<CheckpointStore> =>
    postgres
      ? openPostgresStore(ctx.pgUrl as string, { schema, poolSize: 4, ...options(contender), ...extra })
      : openSqliteStore(path, { durability: backend === 'SQLite (full)' ? 'full' : 'normal', ...options(contender), ...extra });
  const store = await open();
  const cold = await open({ verifiedTextCache: 0 });
  const ids: number[] = [];
  const writes = n(ctx, postgres ? 500 : backend === 'SQLite (full)' ? 600 : 2000);
  const reads = n(ctx, postgres ? 1500 : 5000);
  try {
    const results: Record<(typeof OPERATIONS)[number], { cpu: number; wall: number }> = {
      create: await perCall(writes, async (i) => ids.push((await store.create({ namespace: 'bench', sessionId: `s-${Math.abs(i) % 8}`, payload: payloads[Math.abs(i) & 15]! })).id)),
      get: await perCall(reads, (i) => store.get(ids[(Math.abs(i) * 7919) % ids.length]!, { namespace: 'bench' })),
      'get, every read checked': await perCall(reads, (i) => cold.get(ids[(Math.abs(i) * 7919) % ids.length]!, { namespace: 'bench' })),
      latest: await perCall(reads, (i) => store.latest(`s-${Math.abs(i) % 8}`, { namespace: 'bench' })),
    };
    for (const operation of OPERATIONS) {
      for (const what of ['CPU', 'wall'] as const) {
        samples.push({ scenario: scenarioName(backend, operation, what), impl: contender, unit: 'µs/op', value: what === 'CPU' ? results[operation].cpu : results[operation].wall });
      }
    }
  } finally {
    await cold.close();
    await store.close();
  }
  let bytes: number;
  if (postgres) {
    const pool = new pg.Pool({ connectionString: ctx.pgUrl, max: 1 });
    try {
      bytes = Number((await pool.query<{ bytes: string }>(pgBytes(schema))).rows[0]?.bytes);
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await pool.end();
    }
  } else {
    const db = new Database(path, { readonly: true });
    bytes = Number((db.prepare(SQLITE_BYTES).get() as { bytes: number }).bytes);
    db.close();
  }
  samples.push({ scenario: scenarioName(backend, '', 'bytes'), impl: contender, unit: 'KiB', value: bytes / 1024 });
  return samples;
}

/** See the module comment. */
export async function sealedCost(ctx: BenchContext): Promise<Sample[]> {
  const samples: Sample[] = [];
  const first = rotation++;
  for (const backend of BACKENDS) {
    if (backend === 'PostgreSQL' && ctx.pgUrl === undefined) continue;
    for (let k = 0; k < CONTENDERS.length; k++) samples.push(...(await measure(ctx, backend, CONTENDERS[(first + k) % CONTENDERS.length] as Contender)));
  }
  return samples;
}
