import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CheckpointStore, MemoryAdapter } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import pg from 'pg';

/** The PostgreSQL test server, from `SC_PG_URL`. Unset: PostgreSQL tests are skipped, visibly. */
export const PG_URL = process.env.SC_PG_URL;
if (!PG_URL) console.warn('SC_PG_URL is not set: PostgreSQL ai-sdk tests are SKIPPED (set SC_PG_URL=postgres://... to run them)');

/** A fresh PostgreSQL schema name, and how to drop it. */
export function pgSchema(): { schema: string; drop: () => Promise<void> } {
  const schema = `sc_ai_${process.pid}_${randomBytes(4).toString('hex')}`;
  return {
    schema,
    drop: async () => {
      const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
      try {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await pool.end();
      }
    },
  };
}

/** A temporary directory and its removal. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'sc-ai-sdk-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Where a store lives: `sqlite:<file>` or `postgres:<schema>`, as the child scripts take it. */
export type Target = string;

/** Opens the store at a target. */
export function openTarget(target: Target): Promise<CheckpointStore> {
  return target.startsWith('sqlite:')
    ? openSqliteStore(target.slice('sqlite:'.length))
    : openPostgresStore(PG_URL ?? '', { schema: target.slice('postgres:'.length), poolSize: 2 });
}

/** One backend: a new empty target per call, and the cleanup of all of them. */
export interface Backend {
  name: string;
  available: boolean;
  /** A new empty store target; `undefined` for memory (no target other processes could open). */
  target: () => Target | undefined;
  open: (target: Target | undefined) => Promise<CheckpointStore>;
  cleanup: () => Promise<void>;
}

/** Memory, a SQLite file per target, a PostgreSQL schema per target. */
export function backends(): Backend[] {
  const tmp = tempDir();
  let files = 0;
  const schemas: (() => Promise<void>)[] = [];
  return [
    { name: 'memory', available: true, target: () => undefined, open: async () => new CheckpointStore(new MemoryAdapter()), cleanup: async () => undefined },
    { name: 'sqlite', available: true, target: () => `sqlite:${join(tmp.dir, `chat-${files++}.db`)}`, open: (t) => openTarget(t ?? ''), cleanup: async () => tmp.remove() },
    {
      name: 'postgres',
      available: PG_URL !== undefined,
      target: () => {
        const { schema, drop } = pgSchema();
        schemas.push(drop);
        return `postgres:${schema}`;
      },
      open: (t) => openTarget(t ?? ''),
      cleanup: async () => {
        for (const drop of schemas.splice(0)) await drop();
      },
    },
  ];
}

/**
 * `ai@7` declares `engines.node >=22`: on an older Node (CI's first pass runs Node 20) these tests
 * are skipped, visibly; on Node 22 and later they always run, and a missing peer fails them.
 */
export const RUNTIME_OK = Number(process.versions.node.split('.')[0]) >= 22;
if (!RUNTIME_OK) console.warn(`Node ${process.version}: the @session-checkpoint/ai-sdk tests are SKIPPED: ai@7 needs Node 22 or later (engines.node >=22); CI runs them in its Node 24 pass`);
