/**
 * Raw access to a store's tables, as an attacker with write access to the file or the database
 * has it: plain better-sqlite3 on a second connection, or pg on the schema. SQL is written with
 * `?` placeholders and numbered for PostgreSQL. `snapshot()` is every row of both tables, to show
 * that a refused read left the store exactly as it was.
 */
import Database from 'better-sqlite3';
import type pg from 'pg';
import { ident } from './postgres.js';

export interface RawStore {
  run(sql: string, params?: unknown[]): Promise<void>;
  rows<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  snapshot(): Promise<string>;
  close(): Promise<void>;
}

const SNAPSHOT = ['select * from checkpoints order by id', 'select * from checkpoint_meta order by key'];

/** Raw SQL on a SQLite store file. */
export function rawSqlite(path: string): RawStore {
  const db = new Database(path);
  const store: RawStore = {
    run: async (sql, params = []) => void db.prepare(sql).run(...params),
    rows: async <R>(sql: string, params: unknown[] = []) => db.prepare(sql).all(...params) as R[],
    snapshot: async () => JSON.stringify(await Promise.all(SNAPSHOT.map((sql) => store.rows(sql)))),
    close: async () => void db.close(),
  };
  return store;
}

/** Raw SQL on a PostgreSQL store's schema (every statement qualified by `search_path`). */
export function rawPostgres(pool: pg.Pool, schema: string): RawStore {
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  const query = async (sql: string, params: unknown[]) => {
    const client = await pool.connect();
    try {
      await client.query(`set search_path to ${ident(schema)}`);
      return (await client.query(numbered(sql), params)).rows;
    } finally {
      await client.query('reset search_path').catch(() => undefined);
      client.release();
    }
  };
  const store: RawStore = {
    run: async (sql, params = []) => void (await query(sql, params)),
    rows: async <R>(sql: string, params: unknown[] = []) => (await query(sql, params)) as R[],
    snapshot: async () => JSON.stringify(await Promise.all(SNAPSHOT.map((sql) => query(sql, [])))),
    close: async () => undefined,
  };
  return store;
}
