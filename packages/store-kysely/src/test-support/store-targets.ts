import type { CheckpointStore, CheckpointStoreOptions } from '@session-checkpoint/core';
import { afterAll } from 'vitest';
import { openPostgresStore, openSqliteStore } from '../index.js';
import { dropSchema, PG_URL, testPool, uniqueSchema } from './postgres.js';
import { tempDir } from './temp-dir.js';

/** A backend a test file runs on: each `open` is a new store of its own (a SQLite file, a PostgreSQL schema). */
export interface StoreTarget {
  name: 'sqlite' | 'postgres';
  /** False for PostgreSQL without `SC_PG_URL` (the test skips, saying so). */
  available: boolean;
  pg: boolean;
  open(): Promise<CheckpointStore>;
}

/**
 * The SQLite and PostgreSQL targets of a test file, named by `tag` (its files' prefix, its
 * schemas' label); the files and schemas it opened are removed after the file's tests.
 * `poolSize` is the PostgreSQL store's (default 1); `store` are both stores' options (limits, keys).
 */
export function storeTargets(tag: string, options: { poolSize?: number; store?: CheckpointStoreOptions } = {}): StoreTarget[] {
  const dir = tempDir(`sc-${tag}-`);
  const pool = PG_URL ? testPool(1) : undefined;
  const schemas: string[] = [];
  afterAll(async () => {
    if (pool) {
      for (const schema of schemas) await dropSchema(pool, schema);
      await pool.end();
    }
    dir.remove();
  });
  let files = 0;
  return [
    { name: 'sqlite', available: true, pg: false, open: () => openSqliteStore(dir.file(`${tag}-${files++}.sqlite`), { ...options.store }) },
    {
      name: 'postgres',
      available: PG_URL !== undefined,
      pg: true,
      open: () => {
        const schema = uniqueSchema(`sc_${tag.replace(/\W/g, '_')}`);
        schemas.push(schema);
        return openPostgresStore(PG_URL ?? '', { ...options.store, schema, poolSize: options.poolSize ?? 1 });
      },
    },
  ];
}
