import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { SessionCheckpointSaver } from '@session-checkpoint/langgraph';
import { openPostgresStore, openSqliteStore, type SqliteStoreOptions } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import pg from 'pg';
import { existsSync, rmSync, statSync } from 'node:fs';

/*
 * The savers the LangGraph scenarios compare, on storage of their own. SQLite: files in WAL mode
 * at synchronous=NORMAL on both sides (our store with `durability: "normal"`; SqliteSaver switches
 * to WAL itself and its connection gets the pragma here). PostgreSQL: one server, a schema per
 * saver, dropped by `drop`.
 */

/** An open saver and how to close it. */
export interface OpenSaver {
  saver: BaseCheckpointSaver;
  close(): Promise<void>;
}

/** Storage for one saver: opened (again) on demand, measured, dropped. */
export interface SaverStorage {
  /** Opens a saver on this storage; the storage is created on first open and kept by `close`. */
  open(): Promise<OpenSaver>;
  /** Bytes the storage takes (SQLite: files, after close; PostgreSQL: tables with indexes and TOAST). */
  bytes(): Promise<number>;
  /** Removes the storage. */
  drop(): Promise<void>;
}

/** Bytes of a SQLite database with any WAL and shared-memory files left. */
export function fileBytes(path: string): number {
  return sqliteFiles(path).filter(existsSync).reduce((sum, p) => sum + statSync(p).size, 0);
}

const sqliteFiles = (path: string) => ['', '-wal', '-shm'].map((s) => path + s);

/** SqliteSaver on `path` at synchronous=NORMAL, set up now (setup() sets WAL, so the pragma must follow it). */
export function openSqliteSaver(path: string): OpenSaver {
  const db = new Database(path);
  const saver = new SqliteSaver(db);
  (saver as unknown as { setup(): void }).setup();
  db.pragma('synchronous = NORMAL');
  return {
    saver,
    close: async () => {
      db.close();
    },
  };
}

/** Our saver (default options) over our SQLite store on `path` at durability "normal", with `store` options over that. */
export async function openOurSqliteSaver(path: string, storeOptions: SqliteStoreOptions = {}): Promise<OpenSaver> {
  const store = await openSqliteStore(path, { durability: 'normal', ...storeOptions });
  return { saver: new SessionCheckpointSaver(store), close: () => store.close() };
}

/** A SQLite file for `which` saver. */
export function sqliteStorage(path: string, which: 'ours' | 'peer'): SaverStorage {
  return {
    open: async () => (which === 'ours' ? openOurSqliteSaver(path) : openSqliteSaver(path)),
    bytes: async () => fileBytes(path),
    drop: async () => {
      for (const p of sqliteFiles(path)) rmSync(p, { force: true });
    },
  };
}

/** A fresh PostgreSQL schema for `which` saver, named `schema`. */
export function postgresStorage(url: string, schema: string, which: 'ours' | 'peer'): SaverStorage {
  const admin = () => new pg.Client({ connectionString: url });
  const query = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
    const client = admin();
    await client.connect();
    try {
      return await client.query<T>(text, values);
    } finally {
      await client.end();
    }
  };
  return {
    async open() {
      if (which === 'ours') {
        const store = await openPostgresStore(url, { schema, poolSize: 2 });
        return { saver: new SessionCheckpointSaver(store), close: () => store.close() };
      }
      await query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      const saver = PostgresSaver.fromConnString(url, { schema });
      await saver.setup();
      return { saver, close: () => saver.end() };
    },
    async bytes() {
      const result = await query<{ bytes: string | null }>(
        `SELECT sum(pg_total_relation_size(c.oid))::text AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
        [schema],
      );
      return Number(result.rows[0]?.bytes ?? 0);
    },
    drop: async () => {
      await query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
  };
}
