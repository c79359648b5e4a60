import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { Annotation, Command, END, interrupt, MemorySaver, MessagesAnnotation, START, StateGraph, type StateSnapshot } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { backends } from './test-support/backends.js';

/*
 * A real LangGraph graph (two nodes, a loop, an interrupt resumed with Command, time travel to an
 * earlier checkpoint and a fork) run once on MemorySaver and once on our saver over each backend:
 * the whole getStateHistory must be the same, and the first branch must keep its values after
 * the fork.
 */

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  count: Annotation<number>({ reducer: (_, b) => b, default: () => 0 }),
  notes: Annotation<Map<string, number>>({ reducer: (_, b) => b, default: () => new Map() }),
});

function buildGraph(checkpointer: BaseCheckpointSaver) {
  return new StateGraph(State)
    .addNode('agent', (s) => ({
      count: s.count + 1,
      messages: [new AIMessage(`step ${s.count + 1}`)],
      notes: new Map([...s.notes, [`agent-${s.count + 1}`, s.count + 1]]),
    }))
    .addNode('review', (s) => {
      if (s.count === 2) {
        const answer = interrupt({ question: `continue after ${s.count}?` }) as string;
        return { messages: [new HumanMessage(`review: ${answer}`)] };
      }
      return { messages: [new HumanMessage('review: auto')] };
    })
    .addEdge(START, 'agent')
    .addEdge('agent', 'review')
    .addConditionalEdges('review', (s) => (s.count < 3 ? 'agent' : END))
    .compile({ checkpointer });
}

/** The value of the first interrupt an invoke returned. */
function interruptOf(result: object): unknown {
  return (result as { __interrupt__?: { value: unknown }[] }).__interrupt__?.[0]?.value;
}

/** A history with checkpoint ids replaced by their position, so that two runs compare. */
function normalize(history: StateSnapshot[]): unknown[] {
  const ids = new Map<string, number>();
  const idOf = (config: RunnableConfig | undefined) => {
    const id = config?.configurable?.checkpoint_id as string | undefined;
    if (id === undefined) return null;
    if (!ids.has(id)) ids.set(id, ids.size);
    return ids.get(id);
  };
  return history.map((s) => ({
    id: idOf(s.config),
    parent: idOf(s.parentConfig),
    values: {
      count: s.values.count as number,
      notes: [...(s.values.notes as Map<string, number>)],
      messages: (s.values.messages as BaseMessage[] | undefined)?.map((m) => [m.getType(), m.content]),
    },
    next: s.next,
    source: s.metadata?.source,
    step: s.metadata?.step,
    tasks: s.tasks.map((t) => ({ name: t.name, interrupts: t.interrupts.map((i) => i.value), result: t.result === undefined ? null : Object.keys(t.result as object) })),
  }));
}

async function scenario(checkpointer: BaseCheckpointSaver): Promise<{ history: unknown[]; firstBranch: unknown; firstBranchAfterFork: unknown }> {
  const graph = buildGraph(checkpointer);
  const thread = { configurable: { thread_id: 'graph-thread' } };
  const first = await graph.invoke({ messages: [new HumanMessage('hello')] }, thread);
  expect(interruptOf(first)).toEqual({ question: 'continue after 2?' });
  const done = await graph.invoke(new Command({ resume: 'yes' }), thread);
  expect(done.count).toBe(3);
  expect(done.messages.map((m) => m.content).slice(-3)).toEqual(['review: yes', 'step 3', 'review: auto']);

  // Time travel: replay from the checkpoint where "review" ran for the first time.
  const history = [];
  for await (const s of graph.getStateHistory(thread)) history.push(s);
  const earlier = history.find((s) => s.next[0] === 'review' && s.values.count === 1);
  if (!earlier) throw new Error('no earlier checkpoint');
  const finalState = history[0];
  if (!finalState) throw new Error('no final state');
  const firstBranch = normalize([await graph.getState(finalState.config)]);
  await graph.invoke(null, earlier.config);

  // Fork: change the state at that checkpoint and run on from there; it interrupts again.
  const forkConfig = await graph.updateState(earlier.config, { messages: [new HumanMessage('forked')], count: 1 });
  const forked = await graph.invoke(null, forkConfig);
  expect(interruptOf(forked)).toEqual({ question: 'continue after 2?' });
  await graph.invoke(new Command({ resume: 'again' }), thread);

  const all = [];
  for await (const s of graph.getStateHistory(thread)) all.push(s);
  const firstBranchAfterFork = normalize([await graph.getState(finalState.config)]);
  return { history: normalize(all), firstBranch, firstBranchAfterFork };
}

let reference: ReturnType<typeof scenario> | undefined;
const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.each(list)('a real graph on $name', (backend) => {
  it.skipIf(!backend.available)('gives the same getStateHistory as MemorySaver, through an interrupt, time travel and a fork', async () => {
    const store = await backend.open();
    try {
      const ours = await scenario(new SessionCheckpointSaver(store));
      reference ??= scenario(new MemorySaver());
      const expected = await reference;
      expect(ours.history.length).toBeGreaterThan(10);
      expect(ours.history).toEqual(expected.history);
      // The first branch reads the same values after the fork: no branch overwrote another.
      expect(ours.firstBranchAfterFork).toEqual(ours.firstBranch);
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
