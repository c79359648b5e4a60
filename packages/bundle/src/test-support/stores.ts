/**
 * Store factories for tests: memory, SQLite (a file in a fresh temp dir) and PostgreSQL (a unique
 * schema per store, dropped on cleanup; only when SC_PG_URL is set).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore, MemoryAdapter, type CheckpointLimits, type CheckpointStoreOptions } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import pg from 'pg';
import { afterAll, describe } from 'vitest';

export const PG_URL = process.env.SC_PG_URL;

export interface TestStore {
  store: CheckpointStore;
  /** SQLite file path (undefined for other backends). */
  path?: string;
  cleanup: () => Promise<void>;
}

export type Backend = 'memory' | 'sqlite' | 'postgres';

const created: string[] = [];
// Registered while the importing test file is collected: directories live until its tests end.
afterAll(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the test file's last test. */
export function tempDir(prefix = 'sc-bundle-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

let counter = 0;

export async function openTestStore(backend: Backend, limits?: Partial<CheckpointLimits>, storeOptions: Pick<CheckpointStoreOptions, 'keys' | 'allowPlaintext'> = {}): Promise<TestStore> {
  const options = { ...(limits ? { limits } : {}), ...storeOptions };
  if (backend === 'memory') {
    const store = new CheckpointStore(new MemoryAdapter(), options);
    return { store, cleanup: () => store.close() };
  }
  if (backend === 'sqlite') {
    const dir = tempDir();
    const path = join(dir, 'store.sqlite');
    const store = await openSqliteStore(path, options);
    return {
      store,
      path,
      cleanup: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (!PG_URL) throw new Error('SC_PG_URL is not set');
  const schema = `sc_bundle_${process.pid}_${Date.now().toString(36)}_${++counter}`;
  const store = await openPostgresStore(PG_URL, { ...options, schema, poolSize: 2 });
  return {
    store,
    cleanup: async () => {
      await store.close();
      const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
      try {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await pool.end();
      }
    },
  };
}

const ALL_BACKENDS: readonly Backend[] = ['memory', 'sqlite', 'postgres'];

/**
 * Declares one describe block per backend. PostgreSQL runs when SC_PG_URL is set and is reported
 * as skipped (with the reason in its title) otherwise.
 */
export function describeBackends(title: string, body: (backend: Backend) => void): void {
  for (const backend of ALL_BACKENDS) {
    const available = backend !== 'postgres' || PG_URL !== undefined;
    (available ? describe : describe.skip)(`${title} on ${backend}${available ? '' : ' (set SC_PG_URL to run)'}`, () => body(backend));
  }
}
