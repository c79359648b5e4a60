import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { fileHash } from './run-cli.js';

/** The PostgreSQL server of the tests, if any. */
export const PG_URL = process.env.SC_PG_URL;

/** One store of a sealed-store test, on SQLite or PostgreSQL, with raw access as an attacker has it. */
export interface SealedTarget {
  /** The CLI's store selection (`--store PATH`, or `--database-url URL --schema S`). */
  readonly args: readonly string[];
  /** What `sealed-writer.mjs` takes: `sqlite:<path>` or `pg:<url>|<schema>`. */
  readonly spec: string;
  /** The whole store as text (SQLite: the file's hash; PostgreSQL: every row of both tables), to compare before and after. */
  snapshot(): Promise<string>;
  /** Runs raw SQL against the store, as someone with write access to it (`?` placeholders on SQLite, `$n` on PostgreSQL). */
  sql(statement: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** Keeps a copy of the whole store; `restore()` puts it back. */
  backup(): Promise<{ restore(): Promise<void> }>;
}

/** A backend: whether it is available here, and a fresh empty store of it in `dir`. */
export interface SealedBackend {
  readonly name: string;
  readonly available: boolean;
  fresh(dir: string): SealedTarget;
  /** Drops what the backend created (schemas, pools). */
  cleanup(): Promise<void>;
}

let counter = 0;

/** SQLite: a file in the test's directory. */
export const sqliteBackend: SealedBackend = {
  name: 'SQLite',
  available: true,
  fresh(dir) {
    const path = join(dir, `store-${++counter}.sqlite`);
    return {
      args: ['--store', path],
      spec: `sqlite:${path}`,
      async snapshot() {
        return `${fileHash(path)} ${fileHash(`${path}-wal`)}`;
      },
      async sql(statement, params = []) {
        const db = new Database(path);
        try {
          const prepared = db.prepare(statement);
          return prepared.reader ? (prepared.all(...params) as Record<string, unknown>[]) : (prepared.run(...params), []);
        } finally {
          db.close();
        }
      },
      async backup() {
        const copy = `${path}.backup`;
        copyFileSync(path, copy);
        return {
          async restore() {
            for (const suffix of ['-wal', '-shm']) if (existsSync(path + suffix)) rmSync(path + suffix);
            copyFileSync(copy, path);
          },
        };
      },
    };
  },
  async cleanup() {},
};

const schemas: string[] = [];
let pool: pg.Pool | undefined;
const thePool = () => (pool ??= new pg.Pool({ connectionString: PG_URL, max: 2 }));

/** PostgreSQL: a schema of its own per store, dropped by `cleanup`. */
export const postgresBackend: SealedBackend = {
  name: 'PostgreSQL',
  available: PG_URL !== undefined,
  fresh() {
    const schema = `sc_cli_sealed_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    const run = async (statement: string, params: readonly unknown[] = []) => {
      const client = await thePool().connect();
      try {
        await client.query(`SET search_path TO "${schema}"`);
        return (await client.query(statement, [...params])).rows as Record<string, unknown>[];
      } finally {
        client.release();
      }
    };
    return {
      args: ['--database-url', PG_URL as string, '--schema', schema],
      spec: `pg:${PG_URL as string}|${schema}`,
      async snapshot() {
        const rows = await run('SELECT * FROM checkpoints ORDER BY id');
        const meta = await run('SELECT * FROM checkpoint_meta ORDER BY key');
        return JSON.stringify({ rows, meta });
      },
      sql: run,
      async backup() {
        const tag = `bk${++counter}`;
        await run(`CREATE TABLE ${tag}_rows AS SELECT * FROM checkpoints; CREATE TABLE ${tag}_meta AS SELECT * FROM checkpoint_meta`);
        return {
          async restore() {
            await run(`BEGIN; DELETE FROM checkpoints; INSERT INTO checkpoints SELECT * FROM ${tag}_rows; DELETE FROM checkpoint_meta; INSERT INTO checkpoint_meta SELECT * FROM ${tag}_meta; COMMIT`);
          },
        };
      },
    };
  },
  async cleanup() {
    for (const schema of schemas.splice(0)) await thePool().query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool?.end();
    pool = undefined;
  },
};

/** Both backends, PostgreSQL only where `SC_PG_URL` is set. */
export const SEALED_BACKENDS: readonly SealedBackend[] = [sqliteBackend, postgresBackend];
