import { setTimeout as sleep } from 'node:timers/promises';
import { Checkpointer } from '@session-checkpoint/core';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from './index.js';
import { runChildren, startChild } from './test-support/children.js';
import { tempDir } from './test-support/temp-dir.js';

// Real processes against one SQLite file: SIGKILL mid-write, concurrent writers, concurrent
// retention, concurrent creation. Children run the built package (dist), as applications do.

function count(path: string, where = '1 = 1', ...params: unknown[]): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM checkpoints WHERE ${where}`).get(...params) as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('SQLite with real processes', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => {
    dir = tempDir('sc-proc-');
  });
  afterAll(() => dir.remove());

  it('SIGKILL at random moments never loses an acknowledged checkpoint nor corrupts the store', async () => {
    const path = dir.file('killed.sqlite');
    const acknowledged: number[] = [];
    const kills = 24;
    for (let round = 0; round < kills; round++) {
      const child = startChild('write-loop.mjs', [`sqlite:${path}`, 'crash']);
      // Some kills land during open (schema creation on the first round), most mid-write.
      if (round % 4 !== 0) await child.waitForLine('ready');
      await sleep(Math.random() * 120);
      child.process.kill('SIGKILL');
      const result = await child.done;
      expect(result.signal === 'SIGKILL' || result.code === 0).toBe(true);
      const lines = result.stdout.split('\n');
      lines.pop(); // an unterminated last line was cut by the kill
      acknowledged.push(...lines.filter((l) => /^\d+$/.test(l)).map(Number));
    }
    expect(acknowledged.length).toBeGreaterThan(kills);
    const store = await openSqliteStore(path, { create: false });
    try {
      for (const id of acknowledged) expect((await store.get(id, { namespace: 'crash' })).id).toBe(id);
      const report = await store.verify();
      expect(report.failures).toEqual([]);
      expect(report.checked).toBeGreaterThanOrEqual(acknowledged.length);
      expect(new Set(acknowledged).size).toBe(acknowledged.length);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('4 processes x 250 creates into one file: exactly 1000 rows, no busy error', async () => {
    const path = dir.file('writers.sqlite');
    await (await openSqliteStore(path)).close();
    const started = performance.now();
    await runChildren(
      'write-n.mjs',
      Array.from({ length: 4 }, () => [`sqlite:${path}`, '250', 'many']),
    );
    const seconds = (performance.now() - started) / 1000;
    console.info(`SQLite 4 processes x 250 creates (synchronous=FULL): ${(1000 / seconds).toFixed(0)} creates/s overall`);
    expect(count(path, 'namespace = ?', 'many')).toBe(1000);
    const store = await openSqliteStore(path, { create: false });
    expect((await store.verify()).failures).toEqual([]);
    await store.close();
  }, 120_000);

  it('Checkpointer retention holds under concurrent puts from several processes', async () => {
    const path = dir.file('threads.sqlite');
    await (await openSqliteStore(path)).close();
    await runChildren(
      'thread-put.mjs',
      Array.from({ length: 4 }, () => [`sqlite:${path}`, '40', '3']),
    );
    expect(count(path, 'namespace = ? AND session_id = ?', 'threads', 'shared-thread')).toBe(3);
    const store = await openSqliteStore(path, { create: false });
    const history = await new Checkpointer(store, { namespace: 'threads', maxHistory: 3 }).history('shared-thread');
    expect(history).toHaveLength(3);
    await store.close();
  }, 120_000);

  it('many processes creating one new store at once: one creates it, all succeed', async () => {
    const path = dir.file('race/new.sqlite');
    await runChildren(
      'open-close.mjs',
      Array.from({ length: 6 }, () => [`sqlite:${path}`]),
    );
    expect(count(path, 'namespace = ?', 'race')).toBe(6);
  }, 60_000);
});
