import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { LibSQLStore } from '@mastra/libsql';
import { PostgresStore } from '@mastra/pg';
import type { MemoryStorage } from '@mastra/core/storage';
import { isCheckpointValidationError } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointMemoryStorage, CheckpointWorkflowsStorage, migrateMastra, openMastraStore } from './index.js';
import { backends, PG_URL, pgSchema, RUNTIME_OK } from './test-support/backends.js';

/*
 * Opening Mastra's own storage by location, as `migrate --from` will: a @mastra/libsql file, a
 * @mastra/pg schema; a location that holds no Mastra storage is refused before anything is created
 * there; then a migration from each into SQLite finds no difference.
 */

const tmp = mkdtempSync(join(tmpdir(), 'sc-mastra-open-'));
const list = backends().filter((b) => b.name === 'sqlite');
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const b of list) await b.cleanup();
  for (const drop of drops) await drop();
  rmSync(tmp, { recursive: true, force: true });
});

async function fill(memory: MemoryStorage): Promise<void> {
  const at = new Date(Date.UTC(2026, 0, 1));
  await memory.saveThread({ thread: { id: 'th', resourceId: 'u', title: 'from mastra', createdAt: at, updatedAt: at } });
  await memory.saveMessages({ messages: [0, 1, 2, 3].map((i) => ({ id: `x${i}`, threadId: 'th', resourceId: 'u', role: i % 2 ? ('assistant' as const) : ('user' as const), createdAt: new Date(at.getTime() + i * 1000), content: { format: 2 as const, parts: [{ type: 'text' as const, text: `hi ${i}` }] } })) });
}

describe.skipIf(!RUNTIME_OK)('openMastraStore', () => {
  it('refuses what is not Mastra storage, creating nothing', async () => {
    await expect(openMastraStore(join(tmp, 'nothing.db'))).rejects.toSatisfy(isCheckpointValidationError);
    await expect(openMastraStore(`libsql:${join(tmp, 'missing.db')}`)).rejects.toThrow(/No @mastra\/libsql database/);
    writeFileSync(join(tmp, 'empty.db'), '');
    await expect(openMastraStore(`libsql:${join(tmp, 'empty.db')}`)).rejects.toThrow(/holds no @mastra\/libsql tables/);
    if (PG_URL) await expect(openMastraStore(`${PG_URL}?schema=sc_no_such_${randomBytes(3).toString('hex')}`)).rejects.toThrow(/holds no @mastra\/pg tables/);
  });

  it('opens a @mastra/libsql file and moves it into SQLite', async () => {
    const file = join(tmp, 'app.db');
    const libsql = new LibSQLStore({ id: 'app', url: `file:${file}` });
    await libsql.init();
    await fill((await libsql.getStore('memory')) as MemoryStorage);
    await libsql.close();
    const source = await openMastraStore(`libsql:${file}`);
    const store = await list[0]!.open(list[0]!.target());
    try {
      const report = await migrateMastra(source, { memory: new CheckpointMemoryStorage(store), workflows: new CheckpointWorkflowsStorage(store) }, { apply: true });
      expect(report).toMatchObject({ threads: 1, messages: 4, differences: [] });
    } finally {
      await source.close();
      await store.close();
    }
  });

  it.skipIf(!PG_URL)('opens a @mastra/pg schema and moves it into SQLite', async () => {
    const { schema, drop } = pgSchema();
    drops.push(drop);
    const pg = new PostgresStore({ id: 'app', connectionString: PG_URL ?? '', schemaName: schema });
    await pg.init();
    await fill((await pg.getStore('memory')) as MemoryStorage);
    await pg.close();
    const source = await openMastraStore(`${PG_URL}?schema=${schema}`);
    const store = await list[0]!.open(list[0]!.target());
    try {
      expect(source.kind).toBe('postgres');
      const report = await migrateMastra(source, { memory: new CheckpointMemoryStorage(store), workflows: new CheckpointWorkflowsStorage(store) }, { apply: true });
      expect(report).toMatchObject({ threads: 1, messages: 4, differences: [] });
    } finally {
      await source.close();
      await store.close();
    }
  });
});
