import type { AgentInputItem } from '@openai/agents';
import { exportBundle, importBundle, serializeBundle } from '@session-checkpoint/bundle';
import { CheckpointIntegrityError, CheckpointStore, MemoryAdapter } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointSession, ITEM_KIND, OPERATION_KIND } from './index.js';
import { tempDir } from './test-support/backends.js';

/*
 * Session items are ordinary verified rows: a payload edited in the SQLite file behind the store's
 * back fails closed, `verify` names the row, and a bundle export of the namespace, imported into
 * another store, gives a session there the same history and operation records.
 */

const tmp = tempDir();
afterAll(() => tmp.remove());

const turn = (n: number): AgentInputItem[] => [
  { role: 'user', content: `question ${n}` },
  { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `answer ${n}` }] },
];

describe('CheckpointSession integrity', () => {
  it('a tampered item fails closed with CheckpointIntegrityError; reads that skip it still work', async () => {
    const path = join(tmp.dir, 'tamper.db');
    const store = await openSqliteStore(path);
    try {
      const session = new CheckpointSession(store, { sessionId: 'victim' });
      for (let n = 0; n < 5; n++) await session.addItems(turn(n));
      const [oldest] = await store.listBySourceRefPrefix({ namespace: 'openai-agents', prefix: 'oa/victim/i/', limit: 1 });
      // One row per addItems batch: the oldest holds the first turn.
      expect(oldest?.payload).toEqual({ items: turn(0) });
      const raw = new Database(path);
      try {
        const changed = raw
          .prepare('UPDATE checkpoints SET payload_json = replace(payload_json, ?, ?) WHERE id = ?')
          .run('question 0', 'question X', oldest?.id).changes;
        expect(changed).toBe(1);
      } finally {
        raw.close();
      }
      await expect(session.getItems()).rejects.toThrow(CheckpointIntegrityError);
      await expect(new CheckpointSession(store, { sessionId: 'victim' }).getItems(10)).rejects.toThrow(CheckpointIntegrityError);
      // getItems(limit) reads only the newest rows: the damaged first item is not among them.
      expect(await session.getItems(4)).toEqual([...turn(3), ...turn(4)]);
      const report = await store.verify({ namespace: 'openai-agents' });
      expect(report.failures).toEqual([expect.objectContaining({ id: oldest?.id })]);
    } finally {
      await store.close();
    }
  });

  it('moves a session between stores with a bundle: same items, same operation records, still verified', async () => {
    const source = await openSqliteStore(join(tmp.dir, 'laptop.db'));
    const target = new CheckpointStore(new MemoryAdapter());
    try {
      const session = new CheckpointSession(source, { sessionId: 'traveller' });
      await session.addItems(turn(1));
      const append = { type: 'append_items' as const, items: turn(2) };
      await session.applyHistoryTransaction({ operationId: 'op-1', transaction: append });

      const text = serializeBundle(await exportBundle(source, { namespace: 'openai-agents' }));
      const result = await importBundle(target, text, { apply: true });
      expect(result.inserted).toHaveLength(3);
      const kinds = (await target.list({ namespace: 'openai-agents', limit: 10 })).map((row) => row.kind).sort();
      expect(kinds).toEqual([ITEM_KIND, ITEM_KIND, OPERATION_KIND]);

      const moved = new CheckpointSession(target, { sessionId: 'traveller' });
      expect(await moved.getItems()).toEqual(await session.getItems());
      // The operation record moved too: repeating op-1 there is a no-op, reusing it is refused.
      await moved.applyHistoryTransaction({ operationId: 'op-1', transaction: append });
      await expect(moved.applyHistoryTransaction({ operationId: 'op-1', transaction: { type: 'append_items', items: turn(9) } })).rejects.toThrow(
        /different transaction/,
      );
      await moved.addItems(turn(3));
      expect(await moved.getItems()).toEqual([...turn(1), ...turn(2), ...turn(3)]);
      expect((await target.verify()).failures).toEqual([]);
    } finally {
      await source.close();
      await target.close();
    }
  });
});
