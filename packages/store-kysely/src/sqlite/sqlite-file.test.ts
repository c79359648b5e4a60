import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../index.js';
import { tempDir } from '../test-support/temp-dir.js';

/** A current store left in rollback-journal mode, as the Python tool leaves one. */
async function rollbackStore(path: string): Promise<void> {
  await (await openSqliteStore(path)).close();
  const db = new Database(path);
  db.exec('PRAGMA journal_mode = DELETE');
  db.close();
}

describe('switching a store to WAL while another connection writes', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('sc-wal-');
  });
  afterEach(() => dir.remove());

  // SQLite answers the journal-mode switch with SQLITE_BUSY at once while another connection holds
  // the write lock (no busy handler for that upgrade); six processes creating one new store hit it.
  it('waits for the writer to finish instead of failing with SQLITE_BUSY', async () => {
    const path = dir.file('store.sqlite');
    await rollbackStore(path);
    const writer = new Database(path);
    writer.exec('BEGIN IMMEDIATE');
    const release = new Promise<void>((resolve) =>
      setTimeout(() => {
        writer.exec('COMMIT');
        resolve();
      }, 200),
    );
    const store = await openSqliteStore(path, { busyTimeoutMs: 600_000 });
    await release;
    writer.close();
    await store.create({ sessionId: 's', payload: { a: 1 } });
    const check = new Database(path, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('wal');
    check.close();
    await store.close();
  });

  it('fails with SQLITE_BUSY once the busy timeout has passed, leaving the file as it was', async () => {
    const path = dir.file('store.sqlite');
    await rollbackStore(path);
    const writer = new Database(path);
    writer.exec('BEGIN IMMEDIATE');
    try {
      await expect(openSqliteStore(path, { busyTimeoutMs: 50 })).rejects.toMatchObject({ code: expect.stringMatching(/^SQLITE_BUSY/) });
      expect(writer.pragma('journal_mode', { simple: true })).toBe('delete');
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  });
});
