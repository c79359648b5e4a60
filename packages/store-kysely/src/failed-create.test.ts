import { readFileSync } from 'node:fs';
import { isCheckpointConflictError, type CheckpointStore } from '@session-checkpoint/core';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresStore, openSqliteStore } from './index.js';
import { dropSchema, ident, PG_URL, testPool, uniqueSchema } from './test-support/postgres.js';
import { tempDir } from './test-support/temp-dir.js';

// A refused create (source_ref taken) must consume no id: the Python tool's next id is
// max(sqlite_sequence) + 1, and ours must be the same after any sequence of refusals.

async function conflictThenCreate(store: CheckpointStore): Promise<{ first: number; refused: unknown; next: number }> {
  const first = (await store.create({ namespace: 'app', sessionId: 's', payload: { n: 1 }, sourceRef: 'ref-1' })).id;
  let refused: unknown;
  for (let i = 0; i < 3; i++) {
    try {
      await store.create({ namespace: 'app', sessionId: 's', payload: { n: 2 + i }, sourceRef: 'ref-1' });
    } catch (error) {
      refused = error;
    }
  }
  const next = (await store.create({ namespace: 'app', sessionId: 's', payload: { n: 9 } })).id;
  return { first, refused, next };
}

describe('a refused create consumes no id (SQLite)', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('sc-conflict-');
  });
  afterEach(() => dir.remove());

  it('conflicts leave sqlite_sequence alone: the next id is max + 1, as the Python tool assigns', async () => {
    const path = dir.file('s.sqlite');
    const store = await openSqliteStore(path);
    const { first, refused, next } = await conflictThenCreate(store);
    await store.close();
    expect(isCheckpointConflictError(refused)).toBe(true);
    expect(next).toBe(first + 1);
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare("select seq from sqlite_sequence where name = 'checkpoints'").get()).toEqual({ seq: next });
    raw.close();
  });

  it('a refused create inside a transaction and an explicit-id clash consume no id either', async () => {
    const path = dir.file('t.sqlite');
    const store = await openSqliteStore(path);
    const a = await store.create({ namespace: 'app', sessionId: 's', payload: {}, sourceRef: 'r' });
    const prepared = store.prepare({ namespace: 'app', sessionId: 's', payload: { x: 1 }, sourceRef: 'other' });
    await expect(store.insertPrepared({ ...prepared, id: a.id })).rejects.toThrow(/already exists/u);
    await expect(store.create({ namespace: 'app', sessionId: 's', payload: {}, sourceRef: 'r' }, { keepLatest: 5 })).rejects.toThrow(/already exists/u);
    expect((await store.create({ namespace: 'app', sessionId: 's', payload: {} })).id).toBe(a.id + 1);
    await store.close();
  });

  it('the file is byte-identical after a refused create', async () => {
    const path = dir.file('u.sqlite');
    const store = await openSqliteStore(path);
    await store.create({ namespace: 'app', sessionId: 's', payload: {}, sourceRef: 'r' });
    await store.close();
    const before = readFileSync(path);
    const again = await openSqliteStore(path, { create: false });
    await expect(again.create({ namespace: 'app', sessionId: 's', payload: { y: 1 }, sourceRef: 'r' })).rejects.toThrow(/already exists/u);
    await again.close();
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe.skipIf(!PG_URL)('a refused create consumes no id (PostgreSQL)', () => {
  let pool: pg.Pool;
  const schema = uniqueSchema('sc_conflict');
  beforeAll(() => {
    pool = testPool(2);
  });
  afterAll(async () => {
    await dropSchema(pool, schema);
    await pool.end();
  });

  it('the identity sequence does not move on a conflict: the next id is max + 1', async () => {
    const store = await openPostgresStore(pool, { schema });
    const { first, refused, next } = await conflictThenCreate(store);
    await store.close();
    expect(isCheckpointConflictError(refused)).toBe(true);
    expect(next).toBe(first + 1);
    const max = await pool.query(`select max(id) as id from ${ident(schema)}.checkpoints`);
    expect(Number(max.rows[0].id)).toBe(next);
  });
});
