import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { END, MemorySaver, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver, Checkpoint, CheckpointTuple } from '@langchain/langgraph-checkpoint';
import type { CheckpointStore } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { backends } from './test-support/backends.js';
import { cfg, checkpointWith, meta } from './test-support/checkpoints.js';

/*
 * What is stored is what was given (issue 28): LangGraph nodes edit messages in place and return
 * the same object (same id), and messagesStateReducer puts that very object back in the list. Each
 * put must store the values as they are at the moment of the call, as MemorySaver does, whatever
 * the caller does to the objects before or after; an item is unchanged only if its content is.
 * Every case runs the same calls on MemorySaver and compares what both give back, also through a
 * fresh saver on the same store.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

/** Channel values as plain JSON (messages as their serialized form), for comparison. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** Our saver and MemorySaver, driven by the same calls. */
class Pair {
  readonly memory = new MemorySaver();
  ours: SessionCheckpointSaver;
  constructor(readonly store: CheckpointStore) {
    this.ours = new SessionCheckpointSaver(store);
  }

  /** Puts on both, MemorySaver first (it serialises at the call), then ours with the very same objects. */
  async put(thread: string, parent: string | undefined, checkpoint: Checkpoint, step: number, newVersions: Record<string, number>): Promise<void> {
    await this.memory.put(cfg(thread, parent), checkpoint, meta(step));
    await this.ours.put(cfg(thread, parent), checkpoint, meta(step), newVersions);
  }

  /** Asserts that both savers, and a fresh saver on the same store, give the same values for `id`. */
  async expectSame(thread: string, id: string): Promise<CheckpointTuple> {
    const expected = await this.memory.getTuple(cfg(thread, id));
    const got = await this.ours.getTuple(cfg(thread, id));
    const fresh = await new SessionCheckpointSaver(this.store).getTuple(cfg(thread, id));
    expect(expected).toBeDefined();
    expect(plain(got?.checkpoint.channel_values)).toEqual(plain(expected?.checkpoint.channel_values));
    expect(plain(fresh?.checkpoint.channel_values)).toEqual(plain(expected?.checkpoint.channel_values));
    return got as CheckpointTuple;
  }
}

/** A checkpoint of `messages` at `version`. */
function step(messages: unknown[], version: number): Checkpoint {
  return checkpointWith({ messages }, version);
}

describe.each(list)('in-place edits on $name', (backend) => {
  it.skipIf(!backend.available)('a message edited in place, then the list extended, is stored edited', async () => {
    const pair = new Pair(await backend.open());
    const a = new HumanMessage({ content: 'my card is 1234-5678', id: 'a' });
    const c1 = step([a], 1);
    await pair.put('t', undefined, c1, 0, { messages: 1 });
    a.content = '[REDACTED]';
    const c2 = step([a, new AIMessage({ content: 'noted', id: 'b' })], 2);
    await pair.put('t', c1.id, c2, 1, { messages: 2 });
    const t2 = await pair.expectSame('t', c2.id);
    expect((t2.checkpoint.channel_values.messages as BaseMessage[])[0]?.content).toBe('[REDACTED]');
    // The first checkpoint keeps the text it had when it was put.
    const t1 = await pair.expectSame('t', c1.id);
    expect((t1.checkpoint.channel_values.messages as BaseMessage[])[0]?.content).toBe('my card is 1234-5678');
  });

  it.skipIf(!backend.available)('one item edited in place, the list not extended, version bumped', async () => {
    const pair = new Pair(await backend.open());
    const a = new HumanMessage({ content: 'hello', id: 'a' });
    const b = new AIMessage({ content: 'draft answer', id: 'b' });
    const c1 = step([a, b], 1);
    await pair.put('t', undefined, c1, 0, { messages: 1 });
    b.content = 'final answer';
    const c2 = step([a, b], 2);
    await pair.put('t', c1.id, c2, 1, { messages: 2 });
    await pair.expectSame('t', c2.id);
    await pair.expectSame('t', c1.id);
  });

  it.skipIf(!backend.available)('plain items edited in place are stored edited, nested fields too', async () => {
    const pair = new Pair(await backend.open());
    const a = { role: 'user', content: 'hi', meta: { tags: ['x'] } };
    const c1 = step([a], 1);
    await pair.put('t', undefined, c1, 0, { messages: 1 });
    a.meta.tags.push('y');
    const c2 = step([a, { role: 'assistant', content: 'hello' }], 2);
    await pair.put('t', c1.id, c2, 1, { messages: 2 });
    await pair.expectSame('t', c2.id);
    await pair.expectSame('t', c1.id);
  });

  it.skipIf(!backend.available)('items read back by getTuple in a fresh saver, edited, then extended', async () => {
    const store = await backend.open();
    const pair = new Pair(store);
    const c1 = step([new HumanMessage({ content: 'my card is 1234-5678', id: 'a' }), { role: 'tool', content: 'plain' }], 1);
    await pair.put('t', undefined, c1, 0, { messages: 1 });
    // A new process: a saver that has seen nothing, reading what the first one stored.
    pair.ours = new SessionCheckpointSaver(store);
    const read = await pair.ours.getTuple(cfg('t', c1.id));
    const readMemory = await pair.memory.getTuple(cfg('t', c1.id));
    for (const items of [read?.checkpoint.channel_values.messages, readMemory?.checkpoint.channel_values.messages] as [BaseMessage, { content: string }][]) {
      items[0].content = '[REDACTED]';
      items[1].content = 'edited plain';
    }
    const next = (items: unknown[]) => [...items, new AIMessage({ content: 'ok', id: 'b' })];
    const c2 = step([], 2);
    c2.channel_values = { messages: next(readMemory?.checkpoint.channel_values.messages as unknown[]) };
    await pair.memory.put(cfg('t', c1.id), c2, meta(1));
    c2.channel_values = { messages: next(read?.checkpoint.channel_values.messages as unknown[]) };
    await pair.ours.put(cfg('t', c1.id), c2, meta(1), { messages: 2 });
    const t2 = await pair.expectSame('t', c2.id);
    expect(plain(t2.checkpoint.channel_values.messages)).toMatchObject([{ kwargs: { content: '[REDACTED]' } }, { content: 'edited plain' }, { kwargs: { content: 'ok' } }]);
    await pair.expectSame('t', c1.id);
  });

  it.skipIf(!backend.available)('editing objects after a put changes neither a later put nor getTuple', async () => {
    const pair = new Pair(await backend.open());
    const a = { role: 'user', content: 'original', parts: [{ text: 'one' }] };
    const m = new HumanMessage({ content: 'original message', id: 'm' });
    const c1 = step([a, m], 1);
    await pair.put('t', undefined, c1, 0, { messages: 1 });
    // What getTuple hands out is the caller's too.
    const read = await pair.ours.getTuple(cfg('t', c1.id));
    const handed = read?.checkpoint.channel_values.messages as [{ content: string; parts: { text: string }[] }, BaseMessage];
    a.content = 'changed after put';
    a.parts[0] = { text: 'changed' };
    m.content = 'changed after put';
    handed[0].content = 'changed after getTuple';
    handed[1].content = 'changed after getTuple';
    await pair.expectSame('t', c1.id);
    // A later put of equal content in new objects extends the stored list, unchanged.
    const c2 = step([{ role: 'user', content: 'original', parts: [{ text: 'one' }] }, new HumanMessage({ content: 'original message', id: 'm' }), { role: 'assistant', content: 'more' }], 2);
    await pair.put('t', c1.id, c2, 1, { messages: 2 });
    const t2 = await pair.expectSame('t', c2.id);
    expect(plain(t2.checkpoint.channel_values.messages)).toMatchObject([{ content: 'original' }, { kwargs: { content: 'original message' } }, { content: 'more' }]);
    // New objects equal to the edited ones, forked from the first checkpoint: the edits are stored
    // (what the saver kept of the first put must not have followed the caller's edits).
    const c3 = step([structuredClone(a), new HumanMessage({ content: 'changed after put', id: 'm' }), { role: 'assistant', content: 'more' }], 3);
    await pair.put('t', c1.id, c3, 2, { messages: 3 });
    await pair.expectSame('t', c3.id);
    // And putting the edited objects themselves stores the edits.
    const c4 = step([a, m, { role: 'assistant', content: 'more' }], 4);
    await pair.put('t', c2.id, c4, 3, { messages: 4 });
    await pair.expectSame('t', c4.id);
  });

  it.skipIf(!backend.available)('what the saver keeps of a plain list does not follow edits made after the put', async () => {
    const pair = new Pair(await backend.open());
    const a = { role: 'user', content: 'original' };
    const c1 = step([a], 1);
    await pair.put('t', undefined, c1, 0, { messages: 1 });
    a.content = 'edited after put';
    // A new object equal to the edited one: not the first checkpoint's item, whatever the cache holds.
    const c2 = step([{ ...a }, { role: 'assistant', content: 'more' }], 2);
    await pair.put('t', c1.id, c2, 1, { messages: 2 });
    await pair.expectSame('t', c2.id);
    await pair.expectSame('t', c1.id);
  });

  it.skipIf(!backend.available)('items only the serializer writes (Map, Set, bytes, undefined, Date) are compared by content too', async () => {
    const pair = new Pair(await backend.open());
    const map = new Map([['k', 1]]);
    const bytes = new Uint8Array([1, 2, 3]);
    const items: unknown[] = [map, new Set(['s']), bytes, undefined, new Date(0), new HumanMessage({ content: 'm', id: 'm' })];
    const c1 = step(items, 1);
    await pair.put('t', undefined, c1, 0, { messages: 1 });
    map.set('k', 2);
    bytes[0] = 9;
    const c2 = step([...items, 'next'], 2);
    await pair.put('t', c1.id, c2, 1, { messages: 2 });
    const t2 = await pair.expectSame('t', c2.id);
    const [gotMap, , gotBytes] = t2.checkpoint.channel_values.messages as [Map<string, number>, unknown, Uint8Array];
    expect(gotMap.get('k')).toBe(2);
    expect([...gotBytes]).toEqual([9, 2, 3]);
    await pair.expectSame('t', c1.id);
    const c3 = step([...items, 'next', 'more'], 3);
    await pair.put('t', c2.id, c3, 2, { messages: 3 });
    await pair.expectSame('t', c3.id);
  });

  it.skipIf(!backend.available)('a put reads its values at the call: an edit while it is in flight is not stored', async () => {
    const pair = new Pair(await backend.open());
    const a = new HumanMessage({ content: 'before', id: 'a' });
    const c1 = step([a], 1);
    await pair.memory.put(cfg('t'), c1, meta(0));
    const putting = pair.ours.put(cfg('t'), c1, meta(0), { messages: 1 });
    // LangGraph runs its next step without waiting for the put.
    a.content = 'after';
    await putting;
    await pair.expectSame('t', c1.id);
  });
});

/** START -> agent -> redact -> END: the agent answers, then the redact node edits the card number in place. */
function redactingGraph(checkpointer: BaseCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', (s) => ({ messages: [new AIMessage({ content: `seen ${s.messages.length}`, id: `ai-${s.messages.length}` })] }))
    .addNode('redact', (s) => {
      const edited: BaseMessage[] = [];
      for (const m of s.messages) {
        if (typeof m.content === 'string' && m.content.includes('1234-5678')) {
          // The common idiom: change the message and return the same object (same id).
          m.content = m.content.replace('1234-5678', '[REDACTED]');
          edited.push(m);
        }
      }
      return { messages: edited };
    })
    .addEdge(START, 'agent')
    .addEdge('agent', 'redact')
    .addEdge('redact', END)
    .compile({ checkpointer });
}

describe.each(list)('a real graph redacting in place on $name', (backend) => {
  it.skipIf(!backend.available)('a fresh saver on the same store gives the redacted text, as MemorySaver does', async () => {
    const store = await backend.open();
    const memory = new MemorySaver();
    const config = { configurable: { thread_id: 'redact' } };
    const turns = [
      ['u-1', 'hello'],
      ['u-2', 'my card is 1234-5678'],
      ['u-3', 'bye'],
    ];
    // LangGraph calls each put once the one before is done, without waiting for it unless
    // durability is "sync": so a slower saver's put of a step may come after the next node's edit,
    // and the history of intermediate checkpoints depends on timing for any saver. With "sync"
    // each put is called before the next step runs.
    const run = { ...config, durability: 'sync' as const };
    for (const [id, content] of turns) {
      // Each turn through a new saver (a new process): its list states come from getTuple.
      await redactingGraph(new SessionCheckpointSaver(store)).invoke({ messages: [new HumanMessage({ content, id })] }, run);
      await redactingGraph(memory).invoke({ messages: [new HumanMessage({ content, id })] }, run);
    }
    const fresh = new SessionCheckpointSaver(store);
    const ours = await redactingGraph(fresh).getState(config);
    const expected = await redactingGraph(memory).getState(config);
    const texts = (s: { values: { messages: BaseMessage[] } }) => s.values.messages.map((m) => [m.id, m.content]);
    expect(texts(ours as never)).toEqual(texts(expected as never));
    expect(JSON.stringify(texts(ours as never))).not.toContain('1234-5678');
    expect(texts(ours as never)).toContainEqual(['u-2', 'my card is [REDACTED]']);
    // Every checkpoint of the history, not only the last.
    const history = async (saver: BaseCheckpointSaver) => {
      const out: unknown[] = [];
      for await (const s of redactingGraph(saver).getStateHistory(config)) out.push(texts(s as never));
      return out;
    };
    expect(await history(new SessionCheckpointSaver(store))).toEqual(await history(memory));
  });

  it.skipIf(!backend.available)('with the default durability, the state after the run is the redacted one', async () => {
    const store = await backend.open();
    const memory = new MemorySaver();
    const config = { configurable: { thread_id: 'one-run' } };
    const saver = new SessionCheckpointSaver(store);
    for (const checkpointer of [saver, memory] as BaseCheckpointSaver[]) {
      await redactingGraph(checkpointer).invoke({ messages: [new HumanMessage({ content: 'hi', id: 'u-1' })] }, config);
      await redactingGraph(checkpointer).invoke({ messages: [new HumanMessage({ content: 'card 1234-5678', id: 'u-2' })] }, config);
    }
    const texts = async (c: BaseCheckpointSaver) => ((await redactingGraph(c).getState(config)).values as { messages: BaseMessage[] }).messages.map((m) => [m.id, m.content]);
    expect(await texts(new SessionCheckpointSaver(store))).toEqual(await texts(memory));
    expect(await texts(new SessionCheckpointSaver(store))).toContainEqual(['u-2', 'card [REDACTED]']);
  });
});
