import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../index.js';
import { dropSchema, PG_URL, testPool, uniqueSchema } from '../test-support/postgres.js';
import { statementName } from './named-statements.js';

// PostgreSQL: skipped (with a warning) without SC_PG_URL; with it, an unreachable server fails.

describe('statementName', () => {
  it('names data statements, one name per text, and leaves the rest unnamed', () => {
    const text = 'select "id" from "s"."checkpoints" where "id" = $1 -- named-statements.test';
    const name = statementName(text);
    expect(name).toMatch(/^sc_[0-9a-f]{40}$/u);
    expect(statementName(text)).toBe(name);
    expect(statementName(`${text} `)).not.toBe(name);
    for (const other of ['begin', 'commit', 'create table "x" ("a" int)', 'set local lock_timeout = 5']) expect(statementName(other)).toBeUndefined();
  });
});

describe.skipIf(!PG_URL)('prepared statements on PostgreSQL', () => {
  const pools: pg.Pool[] = [];
  const schemas: string[] = [];
  let admin: pg.Pool;
  // One connection, so the pool's queries see the store's session and its prepared statements.
  const onePool = () => {
    const pool = testPool(1);
    pools.push(pool);
    return pool;
  };
  const fresh = () => {
    const schema = uniqueSchema('sc_named');
    schemas.push(schema);
    return schema;
  };
  const prepared = async (pool: pg.Pool) => Number((await pool.query("select count(*) as n from pg_prepared_statements where name like 'sc\\_%'")).rows[0].n);

  beforeAll(() => {
    admin = testPool(1);
  });
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(admin, schema);
    for (const pool of pools) await pool.end();
    await admin.end();
  });

  const work = async (store: Awaited<ReturnType<typeof openPostgresStore>>) => {
    for (let i = 0; i < 3; i++) await store.create({ namespace: 'app', sessionId: 's', payloadJson: `{"i":${i}}`, sourceRef: `r/${i}` });
    expect((await store.findBySourceRef('app', 'r/2'))?.payloadJson).toBe('{"i":2}');
    expect((await store.list({ namespace: 'app', sessionId: 's' })).length).toBe(3);
  };

  it('with preparedStatements: true, runs the store statements prepared on its connection, and never the lender pool own queries', async () => {
    const pool = onePool();
    const store = await openPostgresStore(pool, { schema: fresh(), preparedStatements: true });
    await work(store);
    const count = await prepared(pool);
    expect(count).toBeGreaterThan(0);
    // The caller's own parameterised query on the pool it lent runs unnamed.
    expect((await pool.query('select $1::int as x', [7])).rows[0].x).toBe(7);
    expect(await prepared(pool)).toBe(count);
    await store.close();
  });

  it('preparedStatements: false prepares nothing', async () => {
    const pool = onePool();
    const store = await openPostgresStore(pool, { schema: fresh(), preparedStatements: false });
    await work(store);
    expect(await prepared(pool)).toBe(0);
    await store.close();
  });

  it('by default prepares nothing (unnamed statements measured cheaper on a quiet server)', async () => {
    const pool = onePool();
    const store = await openPostgresStore(pool, { schema: fresh() });
    await work(store);
    expect(await prepared(pool)).toBe(0);
    await store.close();
  });

  it('with generic plans from the first call, a conditional insert still waits for the lock holder and sees its delete', async () => {
    // force_generic_plan: the named statements run the plan made without their parameters'
    // values, which pg would otherwise choose after five calls.
    const pool = new pg.Pool({ connectionString: PG_URL, max: 2, options: '-c plan_cache_mode=force_generic_plan' });
    pools.push(pool);
    const store = await openPostgresStore(pool, { schema: fresh(), preparedStatements: true });
    const row = (ref: string) => store.prepare({ namespace: 'app', sessionId: 's', payload: { ref }, sourceRef: ref });
    await store.create({ namespace: 'app', sessionId: 's', payload: { n: 1 }, sourceRef: 'parent' });
    for (let i = 0; i < 8; i++) expect(await store.insertPreparedIfPresent(row(`child-${i}`), { present: [{ sourceRef: 'parent' }], lockKey: 'app/t' })).toBeDefined();
    let reached!: () => void;
    let release!: () => void;
    const atLock = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const deleter = store.transaction(async (tx) => {
      await tx.adapter.transactionLock?.('app/t');
      const parent = await tx.findBySourceRef('app', 'parent');
      if (parent) await tx.delete(parent.id, { namespace: 'app', apply: true, force: true });
      reached();
      await gate;
    });
    await atLock;
    const insert = store.insertPreparedIfPresent(row('late'), { present: [{ sourceRef: 'parent' }], lockKey: 'app/t' });
    // Long enough for an insert that does not wait to decide on what it saw before the delete.
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await deleter;
    expect(await insert).toBeUndefined();
    expect(await store.findBySourceRef('app', 'late')).toBeUndefined();
    expect((await pool.query("select count(*) as n from pg_prepared_statements where name like 'sc\\_%'")).rows[0].n).not.toBe('0');
    await store.close();
  });

  it('a schema dropped and created again under the same name is written and read through the same prepared statements', async () => {
    const pool = onePool();
    const schema = fresh();
    const first = await openPostgresStore(pool, { schema, preparedStatements: true });
    await work(first);
    await first.close();
    await dropSchema(admin, schema);
    const again = await openPostgresStore(pool, { schema, preparedStatements: true });
    await work(again);
    await again.close();
  });
});
