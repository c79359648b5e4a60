/**
 * `compact` (issue 37 item 5) with other processes attached: SQLite's VACUUM runs while a writer
 * process writes and a reader process reads the same file. No process sees an error, no
 * acknowledged write is lost, and the file gives back the pages that a prune freed. On PostgreSQL
 * the storage report counts the dead tuples a delete left, and compact runs nothing.
 */
import { statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore, openSqliteStore } from './index.js';
import { startChild } from './test-support/children.js';
import { dropSchema, PG_URL, testPool, uniqueSchema } from './test-support/postgres.js';
import { tempDir } from './test-support/temp-dir.js';

const dir = tempDir('sc-compact-');
const pool = PG_URL ? testPool(2) : undefined;
const schemas: string[] = [];
afterAll(async () => {
  dir.remove();
  for (const schema of schemas) await dropSchema(pool as NonNullable<typeof pool>, schema);
  await pool?.end();
});

describe('compact', () => {
  it('SQLite: VACUUM beside a writer and a reader process gives the freed pages back and loses no write', async () => {
    const path = dir.file('compact.sqlite');
    // Three processes take turns at the write lock; SQLite's busy handler polls, so on a loaded
    // machine one can wait past the default 5 s (CI saw `database is locked` under doubled load):
    // every process here waits up to a minute, which still fails a real deadlock.
    const busyTimeoutMs = 60_000;
    const childEnv = { ...process.env, SC_TEST_BUSY_TIMEOUT_MS: String(busyTimeoutMs) };
    const store = await openSqliteStore(path, { busyTimeoutMs });
    for (let i = 0; i < 400; i++) await store.create({ namespace: 'big', sessionId: `s-${i % 20}`, payload: { i, text: 'x'.repeat(16_000 + i) } });
    for (let k = 0; k < 15; k++) await store.deleteSession(`s-${k}`, { namespace: 'big', apply: true });
    const before = await store.storageReport();
    if (before?.kind !== 'sqlite') throw new Error('expected a SQLite report');
    expect(before.reclaimableBytes).toBeGreaterThan(4_000_000);

    // The writer's 2,000 small rows take well under 1 MB, whenever they land: the size checks
    // below hold however the VACUUM and the writes interleave.
    const writer = startChild('write-n.mjs', [`sqlite:${path}`, '2000', 'live'], childEnv);
    const reader = startChild('read-loop.mjs', [`sqlite:${path}`, 'big'], childEnv);
    await reader.waitForLine('ready');
    const dry = await store.compact();
    expect(dry).toMatchObject({ dryRun: true, compacted: false, after: null });
    const result = await store.compact({ apply: true });
    const wrote = await writer.done;
    reader.process.kill('SIGTERM');
    const read = await reader.done;
    expect(wrote.code, wrote.stderr).toBe(0);
    expect(wrote.stdout).toBe('done 2000\n');
    expect(read.stderr).toBe('');
    expect(read.stdout).toContain('read 50');

    if (result.after?.kind !== 'sqlite') throw new Error('expected a SQLite report');
    expect(result.compacted).toBe(true);
    expect(result.after.fileBytes).toBeLessThan(before.fileBytes - 3_000_000);
    expect((await store.stats({ namespace: 'live' })).totals.rows).toBe(2000);
    expect((await store.verify()).failures).toEqual([]);
    await store.close();
    // The main file itself shrank once the WAL was checkpointed.
    expect(statSync(path).size).toBeLessThan(before.fileBytes - 3_000_000);
  }, 120_000);

  it.skipIf(PG_URL === undefined)('PostgreSQL: the report counts the relations and their dead tuples; compact runs no VACUUM', async () => {
    const schema = uniqueSchema('sc_compact');
    schemas.push(schema);
    const store = await openPostgresStore(pool as NonNullable<typeof pool>, { schema });
    for (let i = 0; i < 200; i++) await store.create({ namespace: 'big', sessionId: `s-${i % 10}`, payload: { i, text: 'x'.repeat(1000) } });
    for (let k = 0; k < 5; k++) await store.deleteSession(`s-${k}`, { namespace: 'big', apply: true });
    const report = await store.storageReport();
    if (report?.kind !== 'postgres') throw new Error('expected a PostgreSQL report');
    expect(report.schema).toBe(schema);
    expect(report.relations.map((r) => r.name)).toEqual(['checkpoint_meta', 'checkpoints']);
    const checkpoints = report.relations.find((r) => r.name === 'checkpoints');
    expect(checkpoints?.totalBytes).toBeGreaterThan(checkpoints?.tableBytes ?? 0);
    const result = await store.compact({ apply: true });
    expect(result.compacted).toBe(false);
    expect(result.after).toBeNull();
    await store.close();
  }, 60_000);
});
