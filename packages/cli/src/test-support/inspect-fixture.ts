import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { Annotation, interrupt, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import type { CheckpointStore } from '@session-checkpoint/core';
import { SessionCheckpointSaver } from '@session-checkpoint/langgraph';
import { CheckpointSession } from '@session-checkpoint/openai-agents';

/*
 * The store the inspector's end-to-end test (and its screenshots) look at: a real multi-turn
 * LangGraph chat with a fork (a StateGraph on our saver), an OpenAI Agents session, and plain
 * checkpoints, one of which the test then tampers with. Message texts carry an e-mail address, a
 * phone number and a "secret" so that the redacted export can be checked.
 */

/** Ids of what {@link writeInspectFixture} wrote. */
export interface InspectFixture {
  /** LangGraph thread id (namespace `langgraph`). */
  thread: string;
  /** Checkpoint ids of the thread, newest first, as getStateHistory lists them. */
  checkpoints: string[];
  /** The checkpoint the fork was made from. */
  forkedFrom: string;
  /** A LangGraph thread waiting on an interrupt (`interrupt('Send the e-mail?')`), and its latest checkpoint. */
  waitingThread: string;
  waitingAt: string;
  /** OpenAI Agents session id (namespace `openai-agents`). */
  agentSession: string;
  /** Plain session id (namespace `default`) and its row ids, oldest first. */
  plainSession: string;
  plainRows: number[];
  /** Texts that must never appear in a redacted bundle. */
  privateTexts: string[];
}

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  turns: Annotation<number>({ reducer: (_, b) => b, default: () => 0 }),
  profile: Annotation<Record<string, unknown>>({ reducer: (a, b) => ({ ...a, ...b }), default: () => ({}) }),
});

/**
 * Writes the fixture into `store` (an empty store).
 *
 * @example
 * ```ts
 * const fixture = await writeInspectFixture(await openSqliteStore(file));
 * ```
 */
export async function writeInspectFixture(store: CheckpointStore): Promise<InspectFixture> {
  const graph = new StateGraph(State)
    .addNode('agent', (s) => {
      const last = s.messages[s.messages.length - 1];
      return {
        turns: s.turns + 1,
        messages: [new AIMessage(`Noted (${s.turns + 1}): ${String(last?.content ?? '').length} chars`)],
        profile: { [`turn_${s.turns + 1}`]: 'seen', api_key: 'sk-live-should-never-leak' },
      };
    })
    .addEdge(START, 'agent')
    .compile({ checkpointer: new SessionCheckpointSaver(store) });
  const thread = 'support-chat';
  const config = { configurable: { thread_id: thread } };
  const turns = ['Hello, I am Ann (ann@example.com).', 'My phone is +49 30 1234567.', 'The secret word is swordfish.'];
  for (const text of turns) await graph.invoke({ messages: [new HumanMessage(text)] }, config);
  const history = [];
  for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
  // Time travel: back to the state after the first turn, and a different second turn from there.
  const afterFirst = history.find((s) => s.values.turns === 1 && s.next.length === 0)!;
  await graph.invoke({ messages: [new HumanMessage('Actually, forget the phone: write to ann.lee@example.org.')] }, afterFirst.config);
  const all = [];
  for await (const snapshot of graph.getStateHistory(config)) all.push(snapshot.config.configurable!.checkpoint_id as string);

  const waitingThread = 'mail-approval';
  const approval = new StateGraph(MessagesAnnotation)
    .addNode('draft', () => ({ messages: [new AIMessage('I will send the e-mail to Bob.')] }))
    .addNode('approve', () => ({ messages: [new HumanMessage(`approved: ${String(interrupt('Send the e-mail?'))}`)] }))
    .addEdge(START, 'draft')
    .addEdge('draft', 'approve')
    .compile({ checkpointer: new SessionCheckpointSaver(store) });
  const waiting = { configurable: { thread_id: waitingThread } };
  await approval.invoke({ messages: [new HumanMessage('Mail Bob the report.')] }, waiting);
  const waitingAt = (await approval.getState(waiting)).config.configurable!.checkpoint_id as string;

  const agentSession = 'agent-session';
  const session = new CheckpointSession(store, { sessionId: agentSession });
  await session.addItems([{ role: 'user', content: 'Book a table for two, my card is 4111 1111 1111 1111.' }]);
  await session.addItems([
    { type: 'function_call', callId: 'call-1', name: 'book_table', arguments: '{"people":2,"email":"bob@example.com"}', status: 'completed' },
    { type: 'function_call_result', callId: 'call-1', name: 'book_table', status: 'completed', output: { type: 'text', text: 'booked at 19:00' } },
  ] as never);
  await session.addItems([{ role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Your table is booked for 19:00.' }] }] as never);

  const plainSession = 'plain-run';
  const plainRows: number[] = [];
  for (let n = 1; n <= 4; n++) {
    const row = await store.create({ sessionId: plainSession, payload: { step: n, notes: `step ${n} of the batch`, owner: 'carol@example.com' } });
    plainRows.push(row.id);
  }
  return {
    thread,
    checkpoints: all,
    forkedFrom: afterFirst.config.configurable!.checkpoint_id as string,
    waitingThread,
    waitingAt,
    agentSession,
    plainSession,
    plainRows,
    privateTexts: ['ann@example.com', 'ann.lee@example.org', '1234567', 'swordfish', 'sk-live-should-never-leak', '4111 1111', 'bob@example.com', 'booked at 19:00', 'carol@example.com', 'Hello, I am Ann'],
  };
}
