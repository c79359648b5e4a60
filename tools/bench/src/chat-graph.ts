import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { END, MessagesDeltaValue, MessagesValue, START, StateGraph, StateSchema } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';

/*
 * The multi-turn chat of the chat scenario: a real StateGraph whose only state is a messages
 * channel. One turn is one `graph.invoke` of a user message: agent (asks for a tool) -> tool
 * (returns about 18 KB) -> agent (answers in about 2 KB), so about 20 KB are appended per turn.
 * The text is seeded prose, the same in every run and process, and not a repetition that a
 * compressing store would shrink to nothing. Every message carries a deterministic id, so that
 * the final history of two savers compares exactly.
 */

/** Bytes of text of the tool's result and of the agent's answer in each turn. */
export const TOOL_BYTES = 18 * 1024;
export const ANSWER_BYTES = 2 * 1024;

/** Seeded 32-bit generator (mulberry32): the same stream for the same seed on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ner', 'ta', 'vis', 'ru', 'sen', 'do', 'pla', 'qui', 'te', 'bor', 'an', 'el', 'gru', 'fi', 'zo', 'che', 'wun'];
/** A vocabulary of 600 made-up words, built once from a fixed seed. */
const WORDS = (() => {
  const next = random(7);
  return Array.from({ length: 600 }, () => Array.from({ length: 1 + Math.floor(next() * 4) }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join(''));
})();

/** About `bytes` of seeded prose: sentences of vocabulary words and numbers. */
export function seededText(seed: number, bytes: number): string {
  const next = random(seed);
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const word = next() < 0.08 ? String(Math.floor(next() * 100_000)) : WORDS[Math.floor(next() * WORDS.length)]!;
    const end = next() < 0.1 ? '. ' : ' ';
    parts.push(word, end);
    size += word.length + end.length;
  }
  return parts.join('').slice(0, bytes);
}

/** The user's message of turn `turn` (0-based). */
export const userMessage = (turn: number) => new HumanMessage({ id: `t${turn}-user`, content: `Question ${turn}: ${seededText(1_000_000 + turn, 160)}` });

/** The texts of a turn, made on first use and shared by every contender (they are immutable). */
const texts = new Map<number, { tool: string; answer: string }>();
function turnTexts(turn: number): { tool: string; answer: string } {
  let t = texts.get(turn);
  if (t === undefined) {
    t = { tool: seededText(2_000_000 + turn, TOOL_BYTES), answer: seededText(3_000_000 + turn, ANSWER_BYTES) };
    texts.set(turn, t);
  }
  return t;
}

/** The messages `turns` turns leave, in order, as {@link historyOf} writes them. */
export function expectedHistory(turns: number): string[] {
  const out: string[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const { tool, answer } = turnTexts(turn);
    out.push(
      describe(userMessage(turn)),
      describe(callMessage(turn)),
      describe(new ToolMessage({ id: `t${turn}-tool`, content: tool, tool_call_id: `call-${turn}` })),
      describe(new AIMessage({ id: `t${turn}-answer`, content: answer })),
    );
  }
  return out;
}

const callMessage = (turn: number) =>
  new AIMessage({ id: `t${turn}-call`, content: '', tool_calls: [{ id: `call-${turn}`, name: 'search', args: { query: `question ${turn}` }, type: 'tool_call' }] });

/** One message as a comparable line: type, id, content, tool calls and the call it answers. */
function describe(message: BaseMessage): string {
  const calls = (message as AIMessage).tool_calls?.map((c) => [c.id, c.name, c.args]) ?? [];
  return JSON.stringify([message.getType(), message.id, message.content, calls, (message as ToolMessage).tool_call_id ?? null]);
}

/** The history of a graph state as comparable lines. */
export function historyOf(messages: readonly BaseMessage[]): string[] {
  return messages.map(describe);
}

const Plain = new StateSchema({ messages: MessagesValue });
const Delta = new StateSchema({ messages: MessagesDeltaValue });

/**
 * The chat graph on `checkpointer`, its messages channel either the ordinary reducer (what users
 * write, and what prebuilt agents use) or LangGraph's opt-in `DeltaChannel` (`MessagesDeltaValue`,
 * whose batch reducer `messagesDeltaReducer` is batching-invariant, as DeltaChannel requires).
 */
export function chatGraph(checkpointer: BaseCheckpointSaver, channel: 'plain' | 'delta') {
  // Both schemas have the same shape; the cast keeps one builder for both.
  return new StateGraph(channel === 'delta' ? Delta : (Plain as unknown as typeof Delta))
    .addNode('agent', (state) => {
      const last = state.messages[state.messages.length - 1];
      const turn = Math.floor(state.messages.length / 4);
      if (last?.getType() === 'tool') return { messages: [new AIMessage({ id: `t${turn}-answer`, content: turnTexts(turn).answer })] };
      return { messages: [callMessage(turn)] };
    })
    .addNode('tool', (state) => {
      const turn = Math.floor(state.messages.length / 4);
      return { messages: [new ToolMessage({ id: `t${turn}-tool`, content: turnTexts(turn).tool, tool_call_id: `call-${turn}` })] };
    })
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', (state) => ((state.messages[state.messages.length - 1] as AIMessage).tool_calls?.length ? 'tool' : END), ['tool', END])
    .addEdge('tool', 'agent')
    .compile({ checkpointer });
}
