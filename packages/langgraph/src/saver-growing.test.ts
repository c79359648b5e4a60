import { createHash } from 'node:crypto';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { END, MemorySaver, MessagesAnnotation, START, StateGraph, type StateSnapshot } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { CheckpointStore } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { backends } from './test-support/backends.js';
import { cfg, checkpointWith, meta } from './test-support/checkpoints.js';

/*
 * Growing state, unchanged graphs: a chat whose message list grows every step is stored as the
 * appended messages (plus snapshots by the snapshot rule), and reads back exactly what
 * MemorySaver gives, through hundreds of turns, a message larger than a row, forks and retention.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

/**
 * user -> agent -> tool -> agent, one invoke per turn (on turns where `usesTool` says so; else the
 * agent answers at once); `toolOutput(turn)` is what the tool returns.
 */
function chatGraph(checkpointer: BaseCheckpointSaver, toolOutput: (turn: number) => string, usesTool: (turn: number) => boolean = () => true) {
  let turn = 0;
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', (s) => {
      const last = s.messages[s.messages.length - 1];
      if (last instanceof ToolMessage) return { messages: [new AIMessage({ content: `answer ${turn}: ${String(last.content).length} chars`, id: `a-${turn}` })] };
      turn = s.messages.filter((m) => m instanceof HumanMessage).length;
      if (!usesTool(turn)) return { messages: [new AIMessage({ content: `direct answer ${turn}`, id: `a-${turn}` })] };
      return { messages: [new AIMessage({ content: '', id: `c-${turn}`, tool_calls: [{ id: `call-${turn}`, name: 'lookup', args: { turn } }] })] };
    })
    .addNode('tool', (s) => {
      const call = (s.messages[s.messages.length - 1] as AIMessage).tool_calls?.[0];
      return { messages: [new ToolMessage({ content: toolOutput(turn), tool_call_id: call?.id ?? 'none', id: `t-${turn}` })] };
    })
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', (s) => ((s.messages[s.messages.length - 1] as AIMessage).tool_calls?.length ? 'tool' : END))
    .addEdge('tool', 'agent')
    .compile({ checkpointer });
}

type Chat = ReturnType<typeof chatGraph>;

/** A history reduced to positions, steps and a digest of the messages, so that two runs compare. */
async function historyOf(graph: Chat, config: RunnableConfig): Promise<unknown[]> {
  const ids = new Map<string, number>();
  const idOf = (c: RunnableConfig | undefined) => {
    const id = c?.configurable?.checkpoint_id as string | undefined;
    if (id === undefined) return null;
    if (!ids.has(id)) ids.set(id, ids.size);
    return ids.get(id);
  };
  const out: unknown[] = [];
  for await (const s of graph.getStateHistory(config)) out.push(digest(s, idOf));
  return out;
}

/** Tool calls compare by their fields: the store keeps JSON objects with their keys sorted. */
function digest(s: StateSnapshot, idOf: (c: RunnableConfig | undefined) => number | null | undefined): unknown {
  const messages = (s.values.messages as BaseMessage[] | undefined) ?? [];
  const text = JSON.stringify(messages.map((m) => [m.getType(), m.content, m.id ?? null, ((m as AIMessage).tool_calls ?? []).map((c) => [c.id, c.name, c.args])]));
  return { id: idOf(s.config), parent: idOf(s.parentConfig), next: s.next, step: s.metadata?.step, n: messages.length, sha: createHash('sha256').update(text).digest('hex') };
}

/** Payload bytes of every row of the saver's namespace. */
async function storedBytes(store: CheckpointStore): Promise<number> {
  let bytes = 0;
  for await (const row of store.scan({ namespace: 'langgraph' })) bytes += row.payloadJson.length;
  return bytes;
}

const TURNS = 300;
const BIG_TURN = 290;
// Small messages, except one tool output over the 1 MiB row limit; the tool runs every 5th turn
// (and at BIG_TURN), which keeps the test lean: about 2.4 checkpoints per turn.
const output = (turn: number) => (turn === BIG_TURN ? `big ${'z'.repeat(1_100_000)}` : `result of turn ${turn} ${'r'.repeat(200)}`);
const usesTool = (turn: number) => turn % 5 === 0 || turn === BIG_TURN;

async function chat(checkpointer: BaseCheckpointSaver, turns: number): Promise<{ history: unknown[]; graph: Chat }> {
  const graph = chatGraph(checkpointer, output, usesTool);
  const config = { configurable: { thread_id: 'chat' } };
  for (let t = 1; t <= turns; t++) await graph.invoke({ messages: [new HumanMessage({ content: `question ${t}`, id: `q-${t}` })] }, config);
  return { history: await historyOf(graph, config), graph };
}

let reference: Promise<unknown[]> | undefined;

describe.each(list.filter((b) => b.name !== 'memory'))('growing state on $name', (backend) => {
  it.skipIf(!backend.available)(`a ${TURNS}-turn chat on default settings reads back what MemorySaver does, stored in O(turns)`, async () => {
    const store = await backend.open();
    try {
      const ours = await chat(new SessionCheckpointSaver(store), TURNS);
      reference ??= chat(new MemorySaver(), TURNS).then((r) => r.history);
      expect(ours.history).toEqual(await reference);
      expect(ours.history.length).toBeGreaterThan(TURNS * 2);
      // O(N): a small multiple of the conversation (stored in full at every step it would be ~150x).
      const final = await ours.graph.getState({ configurable: { thread_id: 'chat' } });
      const conversation = JSON.stringify(final.values.messages).length;
      expect(await storedBytes(store)).toBeLessThan(8 * conversation);
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
    // No verdict on speed: a loaded machine only makes it slower.
  }, 3_600_000);
});

describe.each(list)('incremental lists on $name', (backend) => {
  it.skipIf(!backend.available)('a fork after incremental steps extends its own parent; both branches read as on MemorySaver', async () => {
    const store = await backend.open();
    try {
      const run = async (checkpointer: BaseCheckpointSaver) => {
        const graph = chatGraph(checkpointer, (t) => `out ${t}`);
        const config = { configurable: { thread_id: 'forks' } };
        for (let t = 1; t <= 6; t++) await graph.invoke({ messages: [new HumanMessage({ content: `q ${t}`, id: `q-${t}` })] }, config);
        const history: StateSnapshot[] = [];
        for await (const s of graph.getStateHistory(config)) history.push(s);
        const old = history.find((s) => s.values.messages.length === 12 && s.next.length === 0);
        if (!old) throw new Error('no checkpoint after turn 3');
        const forked = await graph.updateState(old.config, { messages: [new HumanMessage({ content: 'q fork', id: 'fork-1' })] }, 'agent');
        await graph.invoke(null, forked);
        const tip = (await graph.getState(config)).config;
        await graph.invoke({ messages: [new HumanMessage({ content: 'q 7', id: 'q-7' })] }, tip);
        return historyOf(graph, config);
      };
      const ours = await run(new SessionCheckpointSaver(store));
      expect(ours).toEqual(await run(new MemorySaver()));
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('a put whose parent row is missing stores the unchanged channels in full', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const cp = checkpointWith({ a: 'changed', b: 'unchanged' }, 2);
      const config = await saver.put(cfg('t', '1f000000-0000-6000-8000-000000000000'), cp, meta(1), { a: 2 });
      expect((await saver.getTuple(config))?.checkpoint.channel_values).toEqual({ a: 'changed', b: 'unchanged' });
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('retention keeps every piece a kept checkpoint reads', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store, { maxCheckpointsPerThread: 3 });
      let parent: string | undefined;
      const items: string[] = [];
      const expected = new Map<string, string[]>();
      let handed: unknown[] | undefined;
      for (let i = 0; i < 14; i++) {
        // The next value builds on the items the last read handed out, like a reducer does.
        const next = [...(handed ?? []), `item ${i}`];
        items.push(`item ${i}`);
        const cp = { ...checkpointWith({ items: next, system: 'sys' }), channel_versions: { items: i + 1, system: 1 } };
        const config = await saver.put(cfg('r', parent), cp, meta(i), i === 0 ? { items: 1, system: 1 } : { items: i + 1 });
        parent = String(config.configurable?.checkpoint_id);
        expected.set(parent, [...items]);
        handed = (await saver.getTuple(config))?.checkpoint.channel_values.items as unknown[];
      }
      const kept = [];
      for await (const t of saver.list(cfg('r'))) kept.push(t);
      expect(kept.length).toBeGreaterThanOrEqual(3);
      expect(kept.length).toBeLessThanOrEqual(7);
      for (const t of kept) {
        expect(t.checkpoint.channel_values).toEqual({ items: expected.get(t.checkpoint.id), system: 'sys' });
      }
      const rows = await store.list({ namespace: 'langgraph', limit: 100 });
      expect(rows.some((r) => (r.payload as { lists?: unknown }).lists !== undefined)).toBe(true);
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe.each(list)('the list cache byte bound on $name', (backend) => {
  it.skipIf(!backend.available)('a list over the bound is not kept: the next put stores it in full, and it reads back', async () => {
    const store = await backend.open();
    try {
      const item = (i: number) => `item ${i} ${'y'.repeat(3_000)}`;
      const put = async (saver: SessionCheckpointSaver, thread: string) => {
        let parent: string | undefined;
        for (let i = 0; i < 6; i++) {
          const cp = checkpointWith({ items: Array.from({ length: i + 1 }, (_, k) => item(k)) }, i + 1);
          parent = String((await saver.put(cfg(thread, parent), cp, meta(i), { items: i + 1 })).configurable?.checkpoint_id);
        }
        const rows = await store.list({ namespace: saver.namespace, limit: 100 });
        return { parent, pieces: rows.filter((r) => (r.payload as { lists?: unknown }).lists !== undefined).length };
      };
      // Default bound: each put extends its parent's list (stored as the appended item).
      const roomy = new SessionCheckpointSaver(store, { namespace: 'lc-roomy' });
      expect((await put(roomy, 'a')).pieces).toBe(5);
      expect(roomy.listCacheUse.checkpoints).toBeGreaterThan(0);
      // 4 KiB: every list (items of 3 kB) weighs over half of it and is not kept.
      const tight = new SessionCheckpointSaver(store, { namespace: 'lc-tight', listCacheBytes: 4096 });
      const { parent, pieces } = await put(tight, 'b');
      expect(pieces).toBe(0);
      expect(tight.listCacheUse).toEqual({ checkpoints: 0, weight: 0 });
      expect(tight.listCacheUse.weight).toBeLessThanOrEqual(4096);
      const back = await new SessionCheckpointSaver(store, { namespace: 'lc-tight' }).getTuple(cfg('b', parent));
      expect(back?.checkpoint.channel_values.items).toEqual(Array.from({ length: 6 }, (_, k) => item(k)));
      expect(() => new SessionCheckpointSaver(store, { listCacheBytes: -1 })).toThrow(/listCacheBytes must be an integer >= 0/);
    } finally {
      await store.close();
    }
  });
});
