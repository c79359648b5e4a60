import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { END, MemorySaver, MessagesDeltaValue, START, StateGraph, StateSchema } from '@langchain/langgraph';
import { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { deltaChannelHistoryTests } from '@langchain/langgraph-checkpoint-validation';
import { CheckpointStore, MemoryAdapter } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { backends, tempDir } from './test-support/backends.js';

/*
 * DeltaChannel graphs: our getDeltaChannelHistory (one range read) gives what the base class's
 * walk gives and what MemorySaver's graph history shows; the official opt-in conformance tests.
 */

deltaChannelHistoryTests<SessionCheckpointSaver>({
  checkpointerName: '@session-checkpoint/langgraph (MemoryAdapter)',
  createCheckpointer: () => new SessionCheckpointSaver(new CheckpointStore(new MemoryAdapter())),
  destroyCheckpointer: (saver) => saver.store.close(),
});

const tmp = tempDir();
let files = 0;
deltaChannelHistoryTests<SessionCheckpointSaver>({
  checkpointerName: '@session-checkpoint/langgraph (SQLite)',
  createCheckpointer: async () => new SessionCheckpointSaver(await openSqliteStore(join(tmp.dir, `delta-${files++}.db`))),
  destroyCheckpointer: (saver) => saver.store.close(),
});

const list = backends();
afterAll(async () => {
  tmp.remove();
  for (const b of list) await b.cleanup();
});

function deltaGraph(checkpointer: BaseCheckpointSaver) {
  return new StateGraph(new StateSchema({ messages: MessagesDeltaValue }))
    .addNode('agent', (s) => ({ messages: [new AIMessage({ content: `reply ${s.messages.length}`, id: `a-${s.messages.length}` })] }))
    .addEdge(START, 'agent')
    .addEdge('agent', END)
    .compile({ checkpointer });
}

async function run(checkpointer: BaseCheckpointSaver): Promise<unknown[]> {
  const graph = deltaGraph(checkpointer);
  const config = { configurable: { thread_id: 'delta' } };
  // Over 100 updates: DeltaChannel writes a snapshot at its default frequency, then deltas again.
  for (let t = 0; t < 60; t++) await graph.invoke({ messages: [new HumanMessage({ content: `q ${t}`, id: `q-${t}` })] }, config);
  const out: unknown[] = [];
  for await (const s of graph.getStateHistory(config)) {
    out.push({ step: s.metadata?.step, next: s.next, messages: (s.values.messages as BaseMessage[]).map((m) => [m.getType(), m.content, m.id]) });
  }
  return out;
}

describe.each(list)('DeltaChannel graphs on $name', (backend) => {
  it.skipIf(!backend.available)('give the same history as on MemorySaver, and the base class walk agrees with the range read', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const ours = await run(saver);
      expect(ours.length).toBeGreaterThan(100);
      expect(ours).toEqual(await run(new MemorySaver()));
      const latest = await saver.getTuple({ configurable: { thread_id: 'delta' } });
      const middle = { configurable: { thread_id: 'delta', checkpoint_ns: '', checkpoint_id: latest?.parentConfig?.configurable?.checkpoint_id } };
      for (const config of [{ configurable: { thread_id: 'delta' } }, middle]) {
        const fast = await saver.getDeltaChannelHistory({ config, channels: ['messages', 'absent'] });
        const walk = await BaseCheckpointSaver.prototype.getDeltaChannelHistory.call(saver, { config, channels: ['messages', 'absent'] });
        expect(fast).toEqual(walk);
        expect(fast.messages?.writes.length).toBeGreaterThan(0);
      }
      // The walk reads pages that grow from a few checkpoints, not the whole thread: count the
      // rows the store hands the latest checkpoint's history.
      const total = (await store.list({ namespace: 'langgraph', limit: 1000 })).length;
      let read = 0;
      const range = store.listBySourceRefPrefix.bind(store);
      store.listBySourceRefPrefix = async (query) => {
        const rows = await range(query);
        read += rows.length;
        return rows;
      };
      try {
        await saver.getDeltaChannelHistory({ config: { configurable: { thread_id: 'delta' } }, channels: ['messages'] });
      } finally {
        store.listBySourceRefPrefix = range;
      }
      expect(total).toBeLessThan(1000);
      expect(read).toBeGreaterThan(0);
      expect(read).toBeLessThan(total / 2);
    } finally {
      await store.close();
    }
  });
});
