import { HumanMessage } from '@langchain/core/messages';
import type { CheckpointTuple } from '@langchain/langgraph-checkpoint';
import { exportBundle, importBundle, serializeBundle } from '@session-checkpoint/bundle';
import { CheckpointStore, MemoryAdapter } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { tempDir } from './test-support/backends.js';
import { cfg, checkpointWith, meta } from './test-support/checkpoints.js';

/*
 * LangGraph rows are ordinary checkpoints: a bundle export of the saver's namespace, imported
 * into another store, gives a saver there the same tuples (a thread moved from a laptop's SQLite
 * file to another backend).
 */

const tmp = tempDir();
afterAll(() => tmp.remove());

async function everything(saver: SessionCheckpointSaver): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = [];
  for await (const t of saver.list({})) out.push(t);
  return out;
}

describe('moving LangGraph threads with bundles', () => {
  it('export from SQLite, import into another store: the same tuples, still verified', async () => {
    const source = await openSqliteStore(join(tmp.dir, 'laptop.db'));
    const target = new CheckpointStore(new MemoryAdapter());
    try {
      const saver = new SessionCheckpointSaver(source);
      // A value over the 1 MiB row limit (split into part rows) and a list that grows (stored as pieces).
      const doc = 'd'.repeat(1_500_000);
      const first = checkpointWith({ messages: [new HumanMessage('hi')], bytes: new Uint8Array([1, 2]), doc });
      const c1 = await saver.put(cfg('laptop-thread'), first, meta(0), first.channel_versions);
      const second = { ...checkpointWith({ messages: [new HumanMessage('hi'), new HumanMessage('again')], bytes: new Uint8Array([1, 2]) }), channel_versions: { messages: 2, bytes: 1, doc: 1 } };
      const c2 = await saver.put(c1, second, meta(1), { messages: 2 });
      const kinds = (await source.list({ namespace: 'langgraph', limit: 100 })).map((r) => r.kind);
      expect(kinds.filter((k) => k === 'langgraph.part').length).toBeGreaterThanOrEqual(2);
      expect((await source.findBySourceRef('langgraph', `lg/laptop-thread//${String(c2.configurable?.checkpoint_id)}`))?.payload).toHaveProperty('lists.messages.j');
      await saver.putWrites(c2, [['messages', [new HumanMessage('pending')]]], 'task-1');

      const text = serializeBundle(await exportBundle(source, { namespace: 'langgraph' }));
      const result = await importBundle(target, text, { apply: true });
      expect(result.inserted.length).toBeGreaterThanOrEqual(5);

      const moved = new SessionCheckpointSaver(target);
      expect(await everything(moved)).toEqual(await everything(saver));
      expect(await moved.getTuple(cfg('laptop-thread'))).toEqual(await saver.getTuple(cfg('laptop-thread')));
      expect((await target.verify()).failures).toEqual([]);
      // The moved thread carries on in its new store.
      const read = (await moved.getTuple(c2))?.checkpoint.channel_values.messages as HumanMessage[];
      const third = { ...checkpointWith({ messages: [...read, new HumanMessage('on the server')], bytes: new Uint8Array([1, 2]), doc }), channel_versions: { messages: 3, bytes: 1, doc: 1 } };
      const c3 = await moved.put(c2, third, meta(2), { messages: 3 });
      const back = await moved.getTuple(c3);
      expect(back?.checkpoint.channel_values.bytes).toEqual(new Uint8Array([1, 2]));
      expect(back?.checkpoint.channel_values.doc).toBe(doc);
      expect((back?.checkpoint.channel_values.messages as HumanMessage[]).map((m) => m.content)).toEqual(['hi', 'again', 'on the server']);
      expect((await target.findBySourceRef('langgraph', `lg/laptop-thread//${String(c3.configurable?.checkpoint_id)}`))?.payload).toHaveProperty('lists.messages.j');
    } finally {
      await source.close();
      await target.close();
    }
  });
});
