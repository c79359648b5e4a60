import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CheckpointStore, Keyring, MemoryAdapter } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import pg from 'pg';

/** The PostgreSQL test server, from `SC_PG_URL`. Unset: PostgreSQL tests are skipped, visibly. */
export const PG_URL = process.env.SC_PG_URL;
if (!PG_URL) console.warn('SC_PG_URL is not set: PostgreSQL openai-agents tests are SKIPPED (set SC_PG_URL=postgres://... to run them)');

/** A fresh PostgreSQL schema name, and how to drop it. */
export function pgSchema(): { schema: string; drop: () => Promise<void> } {
  const schema = `sc_oa_${process.pid}_${randomBytes(4).toString('hex')}`;
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
  const dir = mkdtempSync(join(tmpdir(), 'sc-openai-agents-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Where a store lives: `sqlite:<file>` or `postgres:<schema>`, as the child scripts take it. */
export type Target = string;

/** The keyring of the sealed variants: a fixed test secret (docs/sealing.md). */
export const TEST_KEYS = new Keyring([{ id: 'agents-test-key', secret: new Uint8Array(32).fill(38) }]);

/** Opens the store at a target; with `keys`, sealed and encrypted. */
export function openTarget(target: Target, keys?: Keyring): Promise<CheckpointStore> {
  const sealed = keys === undefined ? {} : { keys };
  return target.startsWith('sqlite:')
    ? openSqliteStore(target.slice('sqlite:'.length), sealed)
    : openPostgresStore(PG_URL ?? '', { schema: target.slice('postgres:'.length), poolSize: 2, ...sealed });
}

/** One backend: a new empty target per call, and the cleanup of all of them. */
export interface Backend {
  name: string;
  available: boolean;
  /** A new empty store target; `undefined` for memory (no target other processes could open). */
  target: () => Target | undefined;
  open: (target: Target | undefined) => Promise<CheckpointStore>;
  cleanup: () => Promise<void>;
  /** True for the sealed variants (stores opened with {@link TEST_KEYS}). */
  keyed?: boolean;
}

/** The same backends with every store opened with keys: every row sealed, chained and encrypted. */
export function keyedBackends(): Backend[] {
  return backends().map((b) => ({
    ...b,
    name: `${b.name} (sealed)`,
    keyed: true,
    open: (t) => (b.name === 'memory' ? Promise.resolve(new CheckpointStore(new MemoryAdapter(), { keys: TEST_KEYS })) : openTarget(t ?? '', TEST_KEYS)),
  }));
}

/** Memory, a SQLite file per target, a PostgreSQL schema per target. */
export function backends(): Backend[] {
  const tmp = tempDir();
  let files = 0;
  const schemas: (() => Promise<void>)[] = [];
  return [
    { name: 'memory', available: true, target: () => undefined, open: async () => new CheckpointStore(new MemoryAdapter()), cleanup: async () => undefined },
    { name: 'sqlite', available: true, target: () => `sqlite:${join(tmp.dir, `oa-${files++}.db`)}`, open: (t) => openTarget(t ?? ''), cleanup: async () => tmp.remove() },
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
