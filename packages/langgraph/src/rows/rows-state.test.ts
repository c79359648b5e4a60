import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { Annotation, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import type { CheckpointTuple } from '@langchain/langgraph-checkpoint';
import type { CheckpointStore } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from '../index.js';
import { backends } from '../test-support/backends.js';
import { langgraphChannelValues, langgraphState, langgraphThreads, langgraphTimeline, langgraphWrites } from './index.js';

/*
 * The framework-free readers give what the saver gives: for every checkpoint of a real multi-turn
 * graph (messages, a subgraph namespace, a fork made by updateState on an old checkpoint), on
 * every backend, `langgraphState` equals `getTuple` in serialised form, `next` equals the graph's
 * own `getState().next`, and the timeline lists what `list` lists, page by page.
 */

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  turns: Annotation<number>({ reducer: (_, b) => b, default: () => 0 }),
});

const Inner = Annotation.Root({ ...MessagesAnnotation.spec });

function buildGraph(saver: SessionCheckpointSaver) {
  const sub = new StateGraph(Inner)
    .addNode('tool', (s) => ({ messages: [new AIMessage(`tool saw ${s.messages.length}`)] }))
    .addEdge(START, 'tool')
    .compile();
  return new StateGraph(State)
    .addNode('agent', (s) => ({ turns: s.turns + 1, messages: [new AIMessage({ content: `answer ${s.turns + 1}`, id: `ai-${s.turns + 1}` })] }))
    .addNode('sub', sub)
    .addEdge(START, 'agent')
    .addEdge('agent', 'sub')
    .compile({ checkpointer: saver });
}

/** What the serializer writes for a value: the JSON form the readers return. */
async function serialised(saver: SessionCheckpointSaver, value: unknown): Promise<unknown> {
  const [type, bytes] = await saver.serde.dumpsTyped(value);
  expect(type).toBe('json');
  return JSON.parse(new TextDecoder().decode(bytes));
}

async function run(store: CheckpointStore) {
  const saver = new SessionCheckpointSaver(store);
  const graph = buildGraph(saver);
  const thread = { configurable: { thread_id: 'chat' } };
  for (let turn = 1; turn <= 4; turn++) await graph.invoke({ messages: [new HumanMessage(`question ${turn}`)] }, thread);
  // Fork: back to the state after the first turn, with an edited message, and run on.
  const history = [];
  for await (const s of graph.getStateHistory(thread)) history.push(s);
  const old = history.find((s) => s.values.turns === 1 && s.next.length === 0);
  if (!old) throw new Error('no checkpoint after turn 1');
  const fork = await graph.updateState(old.config, { messages: [new HumanMessage('forked question')] });
  await graph.invoke(null, fork);
  await graph.invoke({ messages: [new HumanMessage('after the fork')] }, thread);
  return { saver, graph };
}

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.each(list)('the rows readers on $name', (backend) => {
  it.skipIf(!backend.available)('give getTuple, getState().next and list, for every checkpoint of a forked multi-turn thread with a subgraph', async () => {
    const store = await backend.open();
    try {
      const { saver, graph } = await run(store);
      const tuples: CheckpointTuple[] = [];
      for await (const t of saver.list({ configurable: { thread_id: 'chat' } })) tuples.push(t);
      const namespaces = new Set(tuples.map((t) => t.config.configurable?.checkpoint_ns as string));
      expect(namespaces.size).toBeGreaterThan(1);
      let forks = 0;
      for (const tuple of tuples) {
        const c = tuple.config.configurable as { checkpoint_ns: string; checkpoint_id: string };
        const state = await langgraphState(store, { threadId: 'chat', checkpointNs: c.checkpoint_ns, checkpointId: c.checkpoint_id });
        expect(state.values).toEqual(await serialised(saver, tuple.checkpoint.channel_values));
        expect(state.metadata).toEqual(await serialised(saver, tuple.metadata));
        expect(state.pending_writes).toEqual(await serialised(saver, tuple.pendingWrites ?? []));
        expect(state.parent_checkpoint_id).toBe(tuple.parentConfig?.configurable?.checkpoint_id ?? null);
        expect(state.ts).toBe(tuple.checkpoint.ts);
        const { channel_values: _, ...rest } = tuple.checkpoint;
        expect(state.checkpoint).toEqual(await serialised(saver, rest));
        const writes = await langgraphWrites(store, { threadId: 'chat', checkpointNs: c.checkpoint_ns, checkpointId: c.checkpoint_id });
        expect(writes.map((w) => [w.task_id, w.channel, w.value])).toEqual(state.pending_writes);
        if (c.checkpoint_ns === '') {
          const snapshot = await graph.getState({ configurable: { thread_id: 'chat', checkpoint_id: c.checkpoint_id } });
          expect(state.next).toEqual([...snapshot.next].sort());
          if ((tuple.metadata?.source as string) === 'update') forks++;
        }
        const only = await langgraphChannelValues(store, { threadId: 'chat', checkpointNs: c.checkpoint_ns, checkpointId: c.checkpoint_id, channels: ['messages'] });
        expect(only).toEqual('messages' in state.values ? { messages: state.values.messages } : {});
      }
      expect(forks).toBe(1);

      // The latest, without an id, is getTuple's latest.
      const latest = await saver.getTuple({ configurable: { thread_id: 'chat' } });
      expect((await langgraphState(store, { threadId: 'chat' })).checkpoint_id).toBe(latest?.config.configurable?.checkpoint_id);

      // The timeline of the root namespace, in pages of 3, is list's order with list's metadata.
      const root = tuples.filter((t) => t.config.configurable?.checkpoint_ns === '');
      const entries = [];
      let cursor: string | undefined;
      do {
        const page = await langgraphTimeline(store, { threadId: 'chat', limit: 3, ...(cursor === undefined ? {} : { cursor }) });
        expect(page.entries.length).toBeLessThanOrEqual(3);
        entries.push(...page.entries);
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
      expect(entries.map((e) => e.checkpoint_id)).toEqual(root.map((t) => t.config.configurable?.checkpoint_id));
      expect(entries.map((e) => e.parent_checkpoint_id)).toEqual(root.map((t) => t.parentConfig?.configurable?.checkpoint_id ?? null));
      for (const [i, e] of entries.entries()) {
        expect(e.status).toBe('verified');
        expect(e.bytes).toBeGreaterThan(0);
        expect(e.metadata).toEqual(await serialised(saver, root[i]?.metadata));
      }

      const [summary, ...others] = await langgraphThreads(store);
      expect(others).toEqual([]);
      expect(summary).toMatchObject({ family: 'langgraph', thread_id: 'chat', count: tuples.length, checkpoint_ns: [...namespaces].sort() });
    } finally {
      await store.close();
    }
  });
});
