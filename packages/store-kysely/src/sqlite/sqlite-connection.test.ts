import type { CheckpointStore } from '@session-checkpoint/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../index.js';
import { tempDir } from '../test-support/temp-dir.js';
import { checkpointRowReader, ExclusiveQueue } from './sqlite-connection.js';

const ROW_SQL =
  'select "id", "namespace", "session_id" as "sessionId", "kind", "name", "payload_json" as "payloadJson", "payload_sha256" as "payloadSha256", "created_at" as "createdAt", "source_ref" as "sourceRef" from "checkpoints" order by "id"';

describe('checkpoint rows read in raw mode (SQLite)', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: CheckpointStore;
  beforeEach(async () => {
    dir = tempDir('sc-raw-rows-');
    store = await openSqliteStore(dir.file('r.sqlite'));
    await store.create({ namespace: 'app', sessionId: 'sé', payload: { text: 'ä😀', n: 1 }, sourceRef: 'r/1' });
    await store.create({ namespace: 'app', sessionId: 's', kind: 'k', name: 'named', payload: {} });
    await store.create({ namespace: 'b', sessionId: 's', payload: { a: [1.5] }, sourceRef: 'r/2' });
  });
  afterEach(async () => {
    await store.close();
    dir.remove();
  });

  it('gives the rows better-sqlite3 gives in object mode, same keys in the same order', async () => {
    const db = new Database(dir.file('r.sqlite'), { readonly: true });
    try {
      const expected = db.prepare(ROW_SQL).all() as Record<string, unknown>[];
      const read = checkpointRowReader(db.prepare(ROW_SQL));
      expect(read).toBeDefined();
      const rows = read?.([]) ?? [];
      expect(rows).toEqual(expected);
      expect(rows.map((row) => Object.keys(row))).toEqual(expected.map((row) => Object.keys(row)));
      expect(expected.map((row) => row.sourceRef)).toEqual(['r/1', null, 'r/2']);
    } finally {
      db.close();
    }
    // The adapter's own reads agree with the facade's verified records.
    const listed = await store.list({ namespace: 'app' });
    expect(listed.map((c) => [c.sessionId, c.payload])).toEqual([
      ['s', {}],
      ['sé', { n: 1, text: 'ä😀' }],
    ]);
  });

  it('leaves other statements as they are', () => {
    const db = new Database(dir.file('r.sqlite'), { readonly: true });
    try {
      const other = db.prepare('select "id", "namespace" from "checkpoints" order by "id"');
      expect(checkpointRowReader(other)).toBeUndefined();
      // Not switched to raw mode: still objects.
      expect(other.all()[0]).toEqual({ id: 1, namespace: 'app' });
      const reordered = db.prepare(ROW_SQL.replace('"id", "namespace"', '"namespace", "id"'));
      expect(checkpointRowReader(reordered)).toBeUndefined();
      expect(checkpointRowReader({ all: () => [] })).toBeUndefined();
    } finally {
      db.close();
    }
  });
});

describe('ExclusiveQueue', () => {
  it('starts a task at once when idle, and queues tasks behind a pending one in call order', async () => {
    const queue = new ExclusiveQueue();
    const log: string[] = [];
    let release!: () => void;
    const first = queue.run(async () => {
      log.push('first start');
      await new Promise<void>((resolve) => (release = resolve));
      log.push('first end');
    });
    // Started synchronously: nothing was ahead of it.
    expect(log).toEqual(['first start']);
    const second = queue.run(() => log.push('second'));
    const third = queue.run(() => log.push('third'));
    await Promise.resolve();
    expect(log).toEqual(['first start']);
    release();
    await Promise.all([first, second, third]);
    expect(log).toEqual(['first start', 'first end', 'second', 'third']);
  });

  it('keeps going after a task fails, and reports the failure to its caller only', async () => {
    const queue = new ExclusiveQueue();
    const failed = queue.run(() => {
      throw new Error('boom');
    });
    const next = queue.run(() => 'ok');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ok');
    await expect(queue.run(async () => 'idle again')).resolves.toBe('idle again');
  });
});
