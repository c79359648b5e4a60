import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CheckpointStore, MemoryAdapter } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import pg from 'pg';

/** The PostgreSQL test server, from `SC_PG_URL`. Unset: PostgreSQL tests are skipped, visibly. */
export const PG_URL = process.env.SC_PG_URL;
if (!PG_URL) console.warn('SC_PG_URL is not set: PostgreSQL LangGraph tests are SKIPPED (set SC_PG_URL=postgres://... to run them)');

/** A schema name unique to this process and call. */
export function uniqueSchema(label = 'sc_lg'): string {
  return `${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** Drops a test schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
  try {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema.replaceAll('"', '""')}" CASCADE`);
  } finally {
    await pool.end();
  }
}

/** A temporary directory removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'sc-langgraph-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One backend for the same test: how to open an empty store and how to clean up after the file. */
export interface Backend {
  name: string;
  /** Opens a store with nothing in it. */
  open: () => Promise<CheckpointStore>;
  /** Removes what the backend created (files, schemas). */
  cleanup: () => Promise<void>;
  /** False when the backend is unavailable here (PostgreSQL without SC_PG_URL). */
  available: boolean;
}

/** MemoryAdapter, a fresh SQLite file per store, and a fresh PostgreSQL schema per store. */
export function backends(): Backend[] {
  const tmp = tempDir();
  let files = 0;
  const schemas: string[] = [];
  return [
    { name: 'memory', available: true, open: async () => new CheckpointStore(new MemoryAdapter()), cleanup: async () => undefined },
    { name: 'sqlite', available: true, open: () => openSqliteStore(join(tmp.dir, `lg-${files++}.db`)), cleanup: async () => tmp.remove() },
    {
      name: 'postgres',
      available: PG_URL !== undefined,
      open: () => {
        const schema = uniqueSchema();
        schemas.push(schema);
        return openPostgresStore(PG_URL ?? '', { schema, poolSize: 2 });
      },
      cleanup: async () => {
        for (const schema of schemas.splice(0)) await dropSchema(schema);
      },
    },
  ];
}
