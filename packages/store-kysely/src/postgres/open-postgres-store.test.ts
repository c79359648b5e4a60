import { isStoreNotFoundError, isStoreSchemaError } from '@session-checkpoint/core';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresAdapter, openPostgresStore } from '../index.js';
import { runChildren } from '../test-support/children.js';
import { dropSchema, ident, PG_URL, testPool, uniqueSchema } from '../test-support/postgres.js';

// PostgreSQL: skipped (with a warning) without SC_PG_URL; with it, an unreachable server fails.

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe.skipIf(!PG_URL)('openPostgresStore', () => {
  let pool: pg.Pool;
  const schemas: string[] = [];
  const fresh = (label = 'sc_pg') => {
    const schema = uniqueSchema(label);
    schemas.push(schema);
    return schema;
  };
  const rows = async (schema: string, where = 'true', params: unknown[] = []) =>
    Number((await pool.query(`select count(*) as n from ${ident(schema)}.checkpoints where ${where}`, params)).rows[0].n);

  beforeAll(() => {
    pool = testPool(6);
  });
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(pool, schema);
    await pool.end();
  });

  it('creates the schema, tables and meta row, then reopens the same store', async () => {
    const schema = fresh();
    const store = await openPostgresStore(PG_URL!, { schema });
    const cp = await store.create({ namespace: 'app', sessionId: 's', payloadJson: '{"big":12345678901234567890,"f":1.0}' });
    expect(typeof cp.id).toBe('number');
    await store.close();
    const meta = await pool.query(`select key, value from ${ident(schema)}.checkpoint_meta`);
    expect(meta.rows).toEqual([{ key: 'schema_version', value: '1' }]);
    const again = await openPostgresStore(PG_URL!, { schema, create: false });
    expect((await again.get(cp.id, { namespace: 'app' })).payloadJson).toBe('{"big":12345678901234567890,"f":1.0}');
    await again.close();
  });

  it('create: false on a missing schema -> StoreNotFoundError, nothing created', async () => {
    const schema = fresh();
    expect(isStoreNotFoundError(await rejection(openPostgresStore(PG_URL!, { schema, create: false })))).toBe(true);
    const found = await pool.query('select 1 from pg_namespace where nspname = $1', [schema]);
    expect(found.rowCount).toBe(0);
  });

  it('refuses incompatible tables and unsupported versions with StoreSchemaError', async () => {
    const wrongColumns = fresh();
    await pool.query(`create schema ${ident(wrongColumns)}`);
    await pool.query(`create table ${ident(wrongColumns)}.checkpoint_meta (key text primary key, value text not null)`);
    await pool.query(`create table ${ident(wrongColumns)}.checkpoints (id bigint primary key, namespace text, session text)`);
    const e1 = await rejection(openPostgresStore(PG_URL!, { schema: wrongColumns }));
    expect(isStoreSchemaError(e1)).toBe(true);
    expect(e1.message).toMatch(/^Incompatible checkpoints columns in PostgreSQL schema .*actual=\['id', 'namespace', 'session'\]$/);

    const newer = fresh();
    await (await openPostgresStore(PG_URL!, { schema: newer })).close();
    await pool.query(`update ${ident(newer)}.checkpoint_meta set value = '2' where key = 'schema_version'`);
    const e2 = await rejection(openPostgresStore(PG_URL!, { schema: newer }));
    expect(isStoreSchemaError(e2)).toBe(true);
    expect(e2.message).toMatch(/^Unsupported checkpoint store schema in PostgreSQL schema .*: meta=2$/);
  });

  it('many openers of one new schema at once: exactly one creates it, all work', async () => {
    const schema = fresh();
    const adapters = await Promise.all(Array.from({ length: 6 }, () => openPostgresAdapter(PG_URL!, { schema, poolSize: 1 })));
    await Promise.all(adapters.map((a, i) => a.insert({ namespace: 'race', sessionId: `s${i}`, kind: 'k', name: 'n', payloadJson: '{}', payloadSha256: 'x', createdAt: '2026-01-01T00:00:00Z', sourceRef: null })));
    await Promise.all(adapters.map((a) => a.close()));
    expect(await rows(schema)).toBe(6);
  });

  it('explicit ids imported during concurrent creates never collide, and later ids stay above them', async () => {
    const schema = fresh();
    const store = await openPostgresStore(pool, { schema });
    const prepared = (i: number) => store.prepare({ namespace: 'imp', sessionId: 's', payload: { i } });
    const explicit = Array.from({ length: 20 }, (_, i) => 100 + i * 3);
    // As importBundle does: every explicit id in one transaction. The id lock it takes holds new
    // generated ids back until the sequence is above them all. (Separate one-row transactions may
    // legitimately collide: a create between explicit 100 and explicit 103 can be given 103.)
    const imported = store.transaction(async (tx) => {
      const rows = [];
      for (const [i, id] of explicit.entries()) rows.push(await tx.insertPrepared({ ...prepared(i), id }));
      return rows;
    });
    const created = Array.from({ length: 60 }, (_, i) => store.create({ namespace: 'gen', sessionId: 's', payload: { i } }));
    const [importedRows, ...createdRows] = await Promise.all([imported, ...created]);
    const results = [...importedRows, ...createdRows];
    expect(importedRows.map((cp) => cp.id)).toEqual(explicit);
    expect(new Set(results.map((cp) => cp.id)).size).toBe(80);
    const next = await store.create({ namespace: 'gen', sessionId: 's', payload: { last: true } });
    expect(next.id).toBeGreaterThan(Math.max(...results.map((cp) => cp.id)));
    await store.close();
  });

  it('a pool passed in stays open after the store closes', async () => {
    const schema = fresh();
    const store = await openPostgresStore(pool, { schema });
    await store.close();
    expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('8 processes x 250 creates: exactly 2000 rows, all verified', async () => {
    const schema = fresh();
    await (await openPostgresStore(PG_URL!, { schema })).close();
    const started = performance.now();
    await runChildren(
      'write-n.mjs',
      Array.from({ length: 8 }, () => [`pg:${schema}`, '250', 'many']),
    );
    const seconds = (performance.now() - started) / 1000;
    console.info(`PostgreSQL 8 processes x 250 creates: ${(2000 / seconds).toFixed(0)} creates/s overall`);
    expect(await rows(schema, 'namespace = $1', ['many'])).toBe(2000);
    const store = await openPostgresStore(pool, { schema });
    expect((await store.verify()).failures).toEqual([]);
    await store.close();
  }, 120_000);

  it('Checkpointer retention holds under concurrent puts from several processes', async () => {
    const schema = fresh();
    await (await openPostgresStore(PG_URL!, { schema })).close();
    await runChildren(
      'thread-put.mjs',
      Array.from({ length: 4 }, () => [`pg:${schema}`, '40', '3']),
    );
    expect(await rows(schema, 'namespace = $1 and session_id = $2', ['threads', 'shared-thread'])).toBe(3);
  }, 120_000);
});
