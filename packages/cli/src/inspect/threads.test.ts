import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { removeTempDirs, tempDir } from '../test-support/run-cli.js';
import { resolveFamily } from './threads.js';

afterAll(() => removeTempDirs());

/*
 * Whether a session of plain checkpoints holds a thread is told from its first row, read once:
 * there is one, and no framework package wrote it (a SQLite store, its adapter's reads counted).
 */
describe('resolveFamily on plain checkpoints', () => {
  it("reads a session's first row once, and tells a framework row from a plain one", async () => {
    const store = await openSqliteStore(join(tempDir('sc-threads-'), 'app.sqlite'));
    try {
      await store.create({ namespace: 'default', sessionId: 'plain', kind: 'note', payload: { n: 1 } });
      await store.create({ namespace: 'default', sessionId: 'resource', kind: 'mastra.resource', payload: { id: 'r' } });
      const reads = vi.spyOn(store.adapter, 'listRows');
      expect(await resolveFamily(store, { threadId: 'plain', family: 'checkpoints' })).toEqual({ family: 'checkpoints', namespace: 'default' });
      // Once (the old code read the first row twice: whether a framework wrote it, then whether there is one).
      expect(reads.mock.calls.filter(([query]) => query.sessionId === 'plain')).toHaveLength(1);
      await expect(resolveFamily(store, { threadId: 'resource', family: 'checkpoints' })).rejects.toMatchObject({ name: 'CheckpointNotFoundError' });
      await expect(resolveFamily(store, { threadId: 'nobody', family: 'checkpoints' })).rejects.toMatchObject({ name: 'CheckpointNotFoundError' });
    } finally {
      await store.close();
    }
  });
});
