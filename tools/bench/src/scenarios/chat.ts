import type { BaseMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { join } from 'node:path';
import { chatGraph, expectedHistory, historyOf, userMessage } from '../chat-graph.js';
import type { BenchContext, Sample } from '../context.js';
import { postgresStorage, sqliteStorage, type SaverStorage } from '../saver-backends.js';

/*
 * A multi-turn chat on a real LangGraph graph (issue 16): one `graph.invoke` per turn, about 20 KB
 * appended to the messages channel per turn (chat-graph.ts), on each saver side by side in one
 * run. Contenders per backend: the same graph written with LangGraph's opt-in DeltaChannel on
 * LangGraph's own saver (the anchor), LangGraph's saver with the unchanged graph, ours with the
 * unchanged graph (default saver options), and the DeltaChannel graph on ours. SQLite: WAL at
 * synchronous=NORMAL on both sides; PostgreSQL: one server, a schema per contender, dropped after.
 *
 * Per contender: total time of the turns, bytes of storage after them, time of the first and the
 * last 10 turns, and the time of `getState` through a freshly opened saver. The final history
 * read back that way must equal the one the turns produce (the same for every contender), or the
 * contender's figures are withheld and its samples record the failure; a saver that throws in a
 * turn records the turn and the error instead of ending the bench.
 */

/** The anchor: the same chat written with DeltaChannel, on LangGraph's saver of the backend. */
export const chatAnchor = (peer: string) => `${peer} + DeltaChannel`;
export const OURS = 'SessionCheckpointSaver';
export const OURS_DELTA = `${OURS} + DeltaChannel`;

/**
 * Turns of the DeltaChannel-only comparison (`deltaChat`), a short run of that graph alone. It was
 * chosen below the 50 turns at which the store once refused DeltaChannel's second full snapshot
 * (about 1 MiB); values over the row limit now go to part rows, and `chat` runs the DeltaChannel
 * graph at every turn count.
 */
export const DELTA_CHAT_TURNS = 40;

/**
 * LangGraph's in-memory saver (nothing stored, nothing read from disk), per graph: what the graph
 * runtime itself costs per turn, so that the growth of the stored contenders' turn times can be
 * told from LangGraph's own (its reducers and state handling grow with the history too).
 */
export const memoryReference = (channel: 'plain' | 'delta') => (channel === 'plain' ? 'MemorySaver (no storage)' : 'MemorySaver + DeltaChannel (no storage)');

/** Calls of {@link chat} so far in this process: each starts with the next contender. */
let calls = 0;
let warmedUp = false;
/** Turns of the untimed chat each contender runs once per process before the first measurement. */
const WARM_UP_TURNS = 5;

interface Contender {
  impl: string;
  channel: 'plain' | 'delta';
  /** LangGraph's own saver (the anchor or the plain peer), or ours. */
  ours: boolean;
  storage: SaverStorage;
}

/** Which contenders {@link chat} runs. */
export interface ChatOptions {
  /** Turn counts to run, each on every backend. */
  turns: readonly number[];
  /** Graphs to run: the unchanged one ("plain"), the DeltaChannel one, or both. */
  channels: readonly ('plain' | 'delta')[];
  /**
   * Largest turn count at which LangGraph's savers run the unchanged graph: they store the whole
   * history at every step, O(N^2) (at 300 turns about 5 GB and tens of minutes on PostgreSQL).
   */
  peerPlainMaxTurns: number;
}

/** Name prefix of the samples of `turns` turns on `backend`. */
export const chatScenario = (turns: number, backend: 'SQLite' | 'PostgreSQL') => `chat ${turns} turns, ${backend}`;

const THREAD = { configurable: { thread_id: 'chat' } };
/**
 * Timed `getState` calls per contender, after one untimed call. Five (about 150 ms at 60 turns)
 * let one GC pause or a neighbour's burst swing the ratio from 0.77 to 1.26 between runs; twenty
 * gave 0.61-0.91 in three runs where five had given 0.77-1.26 (docs/decisions/0019-bench-method.md).
 */
const GETSTATE_CALLS = 20;

function contenders(ctx: BenchContext, backend: 'SQLite' | 'PostgreSQL', turns: number): Contender[] {
  const peer = backend === 'SQLite' ? 'SqliteSaver' : 'PostgresSaver';
  const dir = backend === 'SQLite' ? ctx.dir() : '';
  const tag = `${process.pid}_${Date.now().toString(36)}_${turns}`;
  const storage = (name: string, which: 'ours' | 'peer') =>
    backend === 'SQLite' ? sqliteStorage(join(dir, `${name}.sqlite`), which) : postgresStorage(ctx.pgUrl!, `bench_chat_${name}_${tag}`, which);
  return [
    { impl: chatAnchor(peer), channel: 'delta', ours: false, storage: storage('peer_delta', 'peer') },
    { impl: peer, channel: 'plain', ours: false, storage: storage('peer_plain', 'peer') },
    { impl: OURS, channel: 'plain', ours: true, storage: storage('ours_plain', 'ours') },
    { impl: OURS_DELTA, channel: 'delta', ours: true, storage: storage('ours_delta', 'ours') },
  ];
}

const millisSince = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const firstLine = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split('\n')[0]!.slice(0, 160);

/** Runs the chat on one contender; samples named `<prefix>: ...`. */
async function runContender(c: Contender, turns: number, prefix: string, expected: readonly string[]): Promise<Sample[]> {
  const samples = (values: { total: number; bytes: number; read: number; first: number; last: number }, failure?: string): Sample[] =>
    (
      [
        { scenario: `${prefix}: total time`, impl: c.impl, unit: 'ms', value: values.total },
        { scenario: `${prefix}: bytes on disk`, impl: c.impl, unit: 'KiB', value: values.bytes / 1024 },
        { scenario: `${prefix}: getState after reopening`, impl: c.impl, unit: 'ms', value: values.read },
        { scenario: `${prefix}, ${c.impl}: time of 10 turns`, impl: 'first 10', unit: 'ms', value: values.first },
        { scenario: `${prefix}, ${c.impl}: time of 10 turns`, impl: 'last 10', unit: 'ms', value: values.last },
      ] satisfies Sample[]
    ).map((s) => (failure === undefined ? s : { ...s, failure }));
  const failed = (failure: string) => samples({ total: NaN, bytes: NaN, read: NaN, first: NaN, last: NaN }, failure);
  try {
    const times: number[] = [];
    const { saver, close } = await c.storage.open();
    try {
      const graph = chatGraph(saver, c.channel);
      for (let turn = 0; turn < turns; turn++) {
        const start = process.hrtime.bigint();
        try {
          await graph.invoke({ messages: [userMessage(turn)] }, THREAD);
        } catch (error) {
          return failed(`${c.impl} died in turn ${turn + 1} of ${turns}: ${firstLine(error)}`);
        }
        times.push(millisSince(start));
      }
    } finally {
      await close();
    }
    const bytes = await c.storage.bytes();
    // Read back through a saver opened afresh: no state of the writing process can help it.
    const again = await c.storage.open();
    let history: string[];
    let readMs: number;
    try {
      const graph = chatGraph(again.saver, c.channel);
      history = historyOf((await graph.getState(THREAD)).values.messages as BaseMessage[]);
      const start = process.hrtime.bigint();
      for (let i = 0; i < GETSTATE_CALLS; i++) await graph.getState(THREAD);
      readMs = millisSince(start) / GETSTATE_CALLS;
    } finally {
      await again.close();
    }
    const differs = history.findIndex((line, i) => line !== expected[i]);
    if (differs >= 0 || history.length !== expected.length) {
      const at = differs >= 0 ? differs : Math.min(history.length, expected.length);
      return failed(`${c.impl} read back a wrong history: ${history.length} messages read back, ${expected.length} expected, first difference at message ${at + 1}`);
    }
    return samples({ total: sum(times), bytes, read: readMs, first: sum(times.slice(0, 10)), last: sum(times.slice(-10)) });
  } catch (error) {
    return failed(`${c.impl}: ${firstLine(error)}`);
  } finally {
    await c.storage.drop();
  }
}

/** The turn times of the chat on LangGraph's MemorySaver: samples `<prefix>, <reference>: time of 10 turns` and total time. */
async function runMemoryReference(channel: 'plain' | 'delta', turns: number, prefix: string): Promise<Sample[]> {
  const impl = memoryReference(channel);
  const graph = chatGraph(new MemorySaver(), channel);
  const times: number[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const start = process.hrtime.bigint();
    await graph.invoke({ messages: [userMessage(turn)] }, THREAD);
    times.push(millisSince(start));
  }
  return [
    { scenario: `${prefix}: total time`, impl, unit: 'ms', value: sum(times) },
    { scenario: `${prefix}, ${impl}: time of 10 turns`, impl: 'first 10', unit: 'ms', value: sum(times.slice(0, 10)) },
    { scenario: `${prefix}, ${impl}: time of 10 turns`, impl: 'last 10', unit: 'ms', value: sum(times.slice(-10)) },
  ];
}

/**
 * The chat at each turn count on SQLite, and on PostgreSQL when configured. The contender that
 * runs first moves by one each call, so that none always runs first; before the first call's
 * measurements each contender runs a short untimed chat, so that none pays alone for compiling
 * LangGraph's code and its own.
 */
export async function chat(ctx: BenchContext, options: ChatOptions): Promise<Sample[]> {
  const samples: Sample[] = [];
  const shift = calls++;
  const backends = ctx.pgUrl === undefined ? (['SQLite'] as const) : (['SQLite', 'PostgreSQL'] as const);
  if (!warmedUp) {
    warmedUp = true;
    for (const backend of backends) {
      for (const c of contenders(ctx, backend, WARM_UP_TURNS)) await runContender(c, WARM_UP_TURNS, 'warm-up', expectedHistory(WARM_UP_TURNS));
    }
  }
  for (const turns of options.turns) {
    const expected = expectedHistory(turns);
    for (const backend of backends) {
      const all = contenders(ctx, backend, turns).filter(
        (c) => options.channels.includes(c.channel) && (c.ours || c.channel === 'delta' || turns <= options.peerPlainMaxTurns),
      );
      const prefix = chatScenario(turns, backend);
      for (let i = 0; i < all.length; i++) {
        const c = all[(i + shift) % all.length]!;
        process.stderr.write(`  ${prefix}: ${c.impl}\n`);
        samples.push(...(await runContender(c, turns, prefix, expected)));
      }
      for (const channel of options.channels) {
        // MemorySaver serializes the whole list at every step too: O(N^2), like the plain peer.
        if (channel === 'plain' && turns > options.peerPlainMaxTurns) continue;
        process.stderr.write(`  ${prefix}: ${memoryReference(channel)}\n`);
        samples.push(...(await runMemoryReference(channel, turns, prefix)));
      }
    }
  }
  return samples;
}
