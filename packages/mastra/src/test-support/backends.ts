import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CheckpointStore, MemoryAdapter, type CheckpointAdapter } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import pg from 'pg';

/** The PostgreSQL test server, from `SC_PG_URL`. Unset: PostgreSQL tests are skipped, visibly. */
export const PG_URL = process.env.SC_PG_URL;
if (!PG_URL) console.warn('SC_PG_URL is not set: PostgreSQL mastra tests are SKIPPED (set SC_PG_URL=postgres://... to run them)');

/** A fresh PostgreSQL schema name, and how to drop it. */
export function pgSchema(): { schema: string; drop: () => Promise<void> } {
  const schema = `sc_ma_${process.pid}_${randomBytes(4).toString('hex')}`;
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
  const dir = mkdtempSync(join(tmpdir(), 'sc-mastra-'));
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
    { name: 'sqlite', available: true, target: () => `sqlite:${join(tmp.dir, `mastra-${files++}.db`)}`, open: (t) => openTarget(t ?? ''), cleanup: async () => tmp.remove() },
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
 * `adapter` as an adapter without the optional `sourceRefAt` (also in its transactions), as a
 * third-party adapter may be: the domains then take their fallback (reading the rows before a
 * page, or the newest snapshot, raw).
 */
export function withoutSourceRefAt(adapter: CheckpointAdapter): CheckpointAdapter {
  return new Proxy(adapter, {
    get(target, key) {
      if (key === 'sourceRefAt') return undefined;
      if (key === 'transaction') return <T>(fn: (tx: CheckpointAdapter) => Promise<T>) => target.transaction((tx) => fn(withoutSourceRefAt(tx)));
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The memory backend over {@link withoutSourceRefAt}: the oracles run the domains' fallbacks on it. */
export function fallbackBackend(): Backend {
  return { name: 'memory without sourceRefAt', available: true, target: () => undefined, open: async () => new CheckpointStore(withoutSourceRefAt(new MemoryAdapter())), cleanup: async () => undefined };
}

/**
 * `@mastra/core@1` and its storage packages declare `engines.node >=22.13.0`: on an older Node
 * (CI's first pass runs Node 20) these tests are skipped, visibly; on Node 22.13 and later they
 * always run, and a missing peer fails them.
 */
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
export const RUNTIME_OK = major > 22 || (major === 22 && minor >= 13);
if (!RUNTIME_OK) console.warn(`Node ${process.version}: the @session-checkpoint/mastra tests are SKIPPED: @mastra/core@1 needs Node 22.13 or later (engines.node >=22.13.0); CI runs them in its Node 24 pass`);
