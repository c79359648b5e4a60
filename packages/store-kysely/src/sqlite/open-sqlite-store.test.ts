import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isCheckpointError, isStoreNotFoundError, isStoreSchemaError } from '@session-checkpoint/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteAdapter, openSqliteAdapter, openSqliteStore, type SqliteDatabaseLike } from '../index.js';
import { tempDir } from '../test-support/temp-dir.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;
const snapshot = (path: string) => ({ bytes: readFileSync(path), mode: statSync(path).mode });

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

/** Builds a foreign SQLite file with the given DDL. */
function foreignFile(path: string, ...ddl: string[]): void {
  const db = new Database(path);
  for (const statement of ddl) db.exec(statement);
  db.close();
}

describe('openSqliteStore', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('sc-open-');
  });
  afterEach(() => dir.remove());

  it('creates a new store owner-only (0600) with its -wal and -shm files, whatever the umask', async () => {
    const path = dir.file('a/b/store.sqlite');
    const previous = process.umask(0);
    try {
      const store = await openSqliteStore(path);
      await store.create({ sessionId: 's', payload: { a: 1 } });
      for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(modeOf(file)).toBe(0o600);
      await store.close();
    } finally {
      process.umask(previous);
    }
  });

  it('readOnly: a WAL store read and closed leaves no -wal or -shm behind, and every write is refused (issue 37 item 6)', async () => {
    const path = dir.file('store.sqlite');
    const writer = await openSqliteStore(path);
    await writer.create({ sessionId: 's', payload: { a: 1 } });
    await writer.close();
    expect([existsSync(`${path}-wal`), existsSync(`${path}-shm`)]).toEqual([false, false]);
    const before = readFileSync(path);
    const reader = await openSqliteStore(path, { create: false, readOnly: true });
    expect((await reader.list({ sessionId: 's' })).length).toBe(1);
    const refused = await rejection(reader.create({ sessionId: 's', payload: { a: 2 } }));
    expect(`${(refused as { code?: string }).code ?? ''} ${refused.message}`).toMatch(/readonly|read-only/iu);
    await reader.close();
    expect([existsSync(`${path}-wal`), existsSync(`${path}-shm`)]).toEqual([false, false]);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('readOnly while a writer has the store open: the writer\'s -wal and -shm stay, and go when it closes', async () => {
    const path = dir.file('store.sqlite');
    const writer = await openSqliteStore(path);
    await writer.create({ sessionId: 's', payload: { a: 1 } });
    const reader = await openSqliteStore(path, { create: false, readOnly: true });
    expect((await reader.list({ sessionId: 's' })).length).toBe(1);
    await reader.close();
    expect([existsSync(`${path}-wal`), existsSync(`${path}-shm`)]).toEqual([true, true]);
    await writer.create({ sessionId: 's', payload: { a: 2 } });
    await writer.close();
    expect([existsSync(`${path}-wal`), existsSync(`${path}-shm`)]).toEqual([false, false]);
  });

  it('re-hardens an existing store to 0600 on open', async () => {
    const path = dir.file('store.sqlite');
    await (await openSqliteStore(path)).close();
    chmodSync(path, 0o644);
    const store = await openSqliteStore(path);
    expect(modeOf(path)).toBe(0o600);
    await store.close();
  });

  it('runs in WAL with a busy timeout, synchronous=FULL by default and NORMAL on request', async () => {
    const path = dir.file('store.sqlite');
    for (const [durability, expected] of [
      [undefined, 2],
      ['full', 2],
      ['normal', 1],
    ] as const) {
      const database = new Database(path);
      const adapter = await createSqliteAdapter(database as unknown as SqliteDatabaseLike, {
        ...(durability ? { durability } : {}),
        busyTimeoutMs: 1234,
      });
      expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(database.pragma('synchronous', { simple: true })).toBe(expected);
      expect(database.pragma('busy_timeout', { simple: true })).toBe(1234);
      await adapter.close();
      database.close();
    }
    const database = new Database(path);
    const adapter = await createSqliteAdapter(database as unknown as SqliteDatabaseLike);
    expect(database.pragma('busy_timeout', { simple: true })).toBe(5000);
    await adapter.close();
    database.close();
  });

  it('create: false never creates anything: missing file -> StoreNotFoundError, not even parent dirs', async () => {
    const path = dir.file('missing/dir/store.sqlite');
    const error = await rejection(openSqliteStore(path, { create: false }));
    expect(isStoreNotFoundError(error)).toBe(true);
    expect(existsSync(dir.file('missing'))).toBe(false);
  });

  it('create: false on an empty file -> StoreNotFoundError and the file stays empty', async () => {
    const path = dir.file('empty.sqlite');
    writeFileSync(path, '');
    expect(isStoreNotFoundError(await rejection(openSqliteStore(path, { create: false })))).toBe(true);
    expect(statSync(path).size).toBe(0);
  });

  it('an empty existing file becomes a new store', async () => {
    const path = dir.file('empty.sqlite');
    writeFileSync(path, '', { mode: 0o644 });
    const store = await openSqliteStore(path);
    expect((await store.create({ sessionId: 's', payload: {} })).id).toBe(1);
    await store.close();
    expect(modeOf(path)).toBe(0o600);
  });

  const incompatible: [string, (path: string) => void, (path: string) => string][] = [
    [
      'foreign tables',
      (p) => foreignFile(p, 'CREATE TABLE unrelated (x)'),
      (p) => `Refusing incompatible SQLite file ${p}; tables=['unrelated']`,
    ],
    [
      'wrong column names',
      (p) =>
        foreignFile(
          p,
          'CREATE TABLE checkpoint_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
          'CREATE TABLE checkpoints (id INTEGER PRIMARY KEY, namespace TEXT, session TEXT)',
        ),
      (p) =>
        `Incompatible checkpoints columns in ${p}: expected=['created_at', 'id', 'kind', 'name', 'namespace', 'payload_json', 'payload_sha256', 'session_id', 'source_ref'], actual=['id', 'namespace', 'session']`,
    ],
    [
      'a missing meta row',
      (p) =>
        foreignFile(
          p,
          'CREATE TABLE checkpoint_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
          'CREATE TABLE checkpoints (id INTEGER PRIMARY KEY AUTOINCREMENT, namespace TEXT NOT NULL, session_id TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, payload_json TEXT NOT NULL, payload_sha256 TEXT NOT NULL, created_at TEXT NOT NULL, source_ref TEXT, UNIQUE(namespace, source_ref))',
          'PRAGMA user_version = 1',
        ),
      (p) => `Unsupported checkpoint store schema in ${p}: meta=None, user_version=1`,
    ],
    ['a text file', (p) => writeFileSync(p, 'not a database, just text\n'.repeat(100)), (p) => `Refusing incompatible SQLite file ${p}: file is not a database`],
  ];

  it.each(incompatible)('refuses %s with StoreSchemaError and leaves the file byte- and mode-identical', async (_label, make, message) => {
    const path = dir.file('foreign.sqlite');
    make(path);
    chmodSync(path, 0o644);
    const before = snapshot(path);
    for (const create of [true, false]) {
      const error = await rejection(openSqliteStore(path, { create }));
      expect(isStoreSchemaError(error)).toBe(true);
      expect(error.message).toBe(message(path));
    }
    const after = snapshot(path);
    expect(after.mode).toBe(before.mode);
    expect(after.bytes.equals(before.bytes)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it.skipIf(!existsSync('/proc/self'))('fails promptly when the parent cannot be created (Node recursive mkdir spins under /proc)', async () => {
    const error = await rejection(openSqliteStore('/proc/no-such-dir/deeper/s.sqlite'));
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
  }, 10_000);

  it('refuses a directory with StoreSchemaError', async () => {
    const path = dir.file('a-directory');
    mkdirSync(path);
    const error = await rejection(openSqliteStore(path));
    expect(isStoreSchemaError(error)).toBe(true);
    expect(error.message).toContain('not a regular file');
  });

  it('":memory:" is a private, non-persistent store', async () => {
    const adapter = await openSqliteAdapter(':memory:');
    expect(adapter.capabilities).toEqual({ multiProcess: false, persistent: false, concurrentTransactions: false, sourceRefKind: true, transactionLocks: true, conditionalInserts: true, metaEntries: true });
    await adapter.close();
  });

  it('a closed store refuses further calls; close is idempotent', async () => {
    const store = await openSqliteStore(dir.file('closed.sqlite'));
    await store.close();
    await store.close();
    expect(isCheckpointError(await rejection(store.list()))).toBe(true);
  });

  it('a transaction rolls back every write when its callback throws, and nested calls join it', async () => {
    const store = await openSqliteStore(dir.file('tx.sqlite'));
    const failure = await rejection(
      store.transaction(async (tx) => {
        await tx.create({ sessionId: 's', payload: { n: 1 } });
        await tx.transaction(async (inner) => inner.create({ sessionId: 's', payload: { n: 2 } }));
        throw new Error('boom');
      }),
    );
    expect(failure.message).toBe('boom');
    expect(await store.list()).toEqual([]);
    // Writes from outside wait for an open transaction instead of joining it.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tx = store.transaction(async (t) => {
      await t.create({ sessionId: 's', payload: { n: 3 } });
      await gate;
      throw new Error('rolled back');
    });
    const outside = store.create({ sessionId: 's', payload: { n: 4 } });
    release();
    await expect(tx).rejects.toThrow('rolled back');
    await outside;
    expect((await store.list()).map((cp) => cp.payloadJson)).toEqual(['{"n":4}']);
    await store.close();
  });
});
