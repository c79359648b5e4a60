import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { KyselyAdapter, migrateToLatest, openSqliteStore, type CheckpointDatabase } from './index.js';
import { tempDir } from './test-support/temp-dir.js';

// Evaluating Kysely costs a CLI process tens of milliseconds, so the SQLite front door loads it only
// to create or migrate a schema and for the rare per-call queries. These tests watch a real process
// to prove it: which modules it loads is the verdict, never how long it takes.

const SUPPORT = join(dirname(fileURLToPath(import.meta.url)), 'test-support');

/** A module of the kysely package, as an ES module URL or a CommonJS path. */
const KYSELY_MODULE = /[\\/]node_modules[\\/]kysely[\\/]/u;

interface Loaded {
  esm: string[];
  cjs: string[];
}

/** Runs test-support/hot-path.mjs with every ES module it loads recorded; returns what it loaded. */
async function hotPath(path: string, mode: 'create' | 'existing' | 'prune', log: string): Promise<Loaded> {
  const env = { ...process.env, SC_LOAD_LOG: log };
  const child = spawn(process.execPath, ['--import', join(SUPPORT, 'load-log.mjs'), join(SUPPORT, 'hot-path.mjs'), path, mode], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`hot-path.mjs ${mode} failed (${code}): ${stderr}`);
  const { cjs } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { cjs: string[] };
  return { esm: readFileSync(log, 'utf8').split('\n').filter(Boolean), cjs };
}

const kyselyModules = (loaded: Loaded) => [...loaded.esm, ...loaded.cjs].filter((m) => KYSELY_MODULE.test(m));

/** A current store on disk, created in this process. */
async function existingStore(path: string): Promise<void> {
  const store = await openSqliteStore(path);
  await store.create({ sessionId: 's0', payload: { n: 0 } });
  await store.close();
}

describe('Kysely is loaded only when needed (SQLite front door)', () => {
  it('opening a current store with create: false, every hot operation and close load no module of kysely', async () => {
    const dir = tempDir();
    try {
      const path = dir.file('store.sqlite');
      await existingStore(path);
      const loaded = await hotPath(path, 'existing', dir.file('load.log'));
      // The log works: the package, its frozen queries and the driver were recorded.
      expect(loaded.esm.some((url) => url.endsWith('/sqlite/frozen-queries.generated.js'))).toBe(true);
      expect(loaded.esm.some((url) => url.includes('better-sqlite3'))).toBe(true);
      expect(kyselyModules(loaded)).toEqual([]);
    } finally {
      dir.remove();
    }
  });

  it('create: true on a current store loads none either', async () => {
    const dir = tempDir();
    try {
      const path = dir.file('store.sqlite');
      await existingStore(path);
      expect(kyselyModules(await hotPath(path, 'create', dir.file('load.log')))).toEqual([]);
    } finally {
      dir.remove();
    }
  });

  it('creating a new store loads Kysely (it builds the schema), so the check above can fail', async () => {
    const dir = tempDir();
    try {
      const loaded = await hotPath(dir.file('new.sqlite'), 'create', dir.file('load.log'));
      expect(kyselyModules(loaded).length).toBeGreaterThan(0);
    } finally {
      dir.remove();
    }
  });

  it('a store the Python tool created (no session index) loads Kysely to add the index', async () => {
    const dir = tempDir();
    try {
      const path = dir.file('store.sqlite');
      await existingStore(path);
      const raw = new Database(path);
      raw.exec('DROP INDEX idx_checkpoints_session_created');
      raw.close();
      expect(kyselyModules(await hotPath(path, 'create', dir.file('load.log'))).length).toBeGreaterThan(0);
      const check = new Database(path, { readonly: true });
      const index = check.prepare("select name from sqlite_master where name = 'idx_checkpoints_session_created'").get();
      check.close();
      expect(index).toBeDefined();
    } finally {
      dir.remove();
    }
  });

  it('prune, a per-call query, loads Kysely on demand and works', async () => {
    const dir = tempDir();
    try {
      const path = dir.file('store.sqlite');
      await existingStore(path);
      expect(kyselyModules(await hotPath(path, 'prune', dir.file('load.log'))).length).toBeGreaterThan(0);
      const store = await openSqliteStore(path, { create: false });
      // keepLatest 1 per session: s1's newer row and s0's only row are left; s2 went with deleteSession.
      expect((await store.list()).map((c) => c.sessionId)).toEqual(['s1', 's0']);
      await store.close();
    } finally {
      dir.remove();
    }
  });
});

describe('KyselyAdapter over a caller-made Kysely instance', () => {
  it('works when used at once, while its templates are still being compiled', async () => {
    const database = new Database(':memory:');
    const db = new Kysely<CheckpointDatabase>({ dialect: new SqliteDialect({ database }) });
    await migrateToLatest(db);
    const adapter = new KyselyAdapter(db, { ownsDatabase: true });
    const row = {
      namespace: 'ns', sessionId: 's', kind: 'checkpoint', name: 'n', payloadJson: '{}', payloadSha256: 'x'.repeat(64),
      createdAt: '2024-01-01T00:00:00Z', sourceRef: 'ref/1',
    };
    // No await between construction and these calls: each must wait for the templates itself.
    const [inserted, listed, scanned, ranged] = await Promise.all([
      adapter.insert(row),
      adapter.listRows({ namespace: 'ns', limit: 10, offset: 0 }),
      adapter.scanRows({ afterId: 0, limit: 10 }),
      adapter.listBySourceRefPrefix({ namespace: 'ns', prefix: 'ref/', limit: 10 }),
    ]);
    expect(inserted.id).toBe(1);
    expect([listed.length, scanned.length, ranged.length]).toEqual([1, 1, 1]);
    await adapter.close();
  });

  it('a dialect other than SQLite or PostgreSQL is refused when the adapter is made', async () => {
    const { DummyDriver, MysqlAdapter, MysqlIntrospector, MysqlQueryCompiler } = await import('kysely');
    const db = new Kysely<CheckpointDatabase>({
      dialect: {
        createAdapter: () => new MysqlAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (k) => new MysqlIntrospector(k),
        createQueryCompiler: () => new MysqlQueryCompiler(),
      },
    });
    expect(() => new KyselyAdapter(db)).toThrow(/Unsupported Kysely dialect MysqlAdapter/u);
  });
});
