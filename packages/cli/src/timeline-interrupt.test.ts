/**
 * `timeline` marks a LangGraph thread that waits on an interrupt, through the real binary over a
 * store written by a real StateGraph on our saver: the interrupted step carries the question and
 * `waiting: true` until the thread is resumed, then `waiting: false`.
 */
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { Command, interrupt, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { SessionCheckpointSaver } from '@session-checkpoint/langgraph';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, runCli, tempDir } from './test-support/run-cli.js';

afterAll(() => removeTempDirs());

function buildGraph(checkpointer: SessionCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', () => ({ messages: [new AIMessage('I will send the e-mail to Bob.')] }))
    .addNode('approve', () => ({ messages: [new HumanMessage(`approved: ${String(interrupt('Send the e-mail?'))}`)] }))
    .addEdge(START, 'agent')
    .addEdge('agent', 'approve')
    .compile({ checkpointer });
}

describe('timeline and interrupts', () => {
  it('marks the step that waits on an interrupt, and no longer once the thread is resumed', async () => {
    const dir = tempDir('sc-timeline-interrupt-');
    const file = join(dir, 'app.sqlite');
    const config = { configurable: { thread_id: 'mail' } };
    const store = await openSqliteStore(file);
    try {
      await buildGraph(new SessionCheckpointSaver(store)).invoke({ messages: [new HumanMessage('Mail Bob the report.')] }, config);
    } finally {
      await store.close();
    }
    const timeline = async () => {
      const r = await runCli(['timeline', '--store', file, '--thread', 'mail'], { cwd: dir });
      const doc = JSON.parse(r.stdout) as { ok: boolean; result: any };
      expect(doc.ok, r.stdout).toBe(true);
      return doc.result;
    };
    const waiting = await timeline();
    expect(waiting.waiting_on_interrupt).toBe(true);
    expect(waiting.entries[0]).toMatchObject({ latest: true, nodes: ['agent'], messages_added: [{ role: 'ai', text: 'I will send the e-mail to Bob.' }], interrupt: { waiting: true, values: ['Send the e-mail?'] } });
    expect(waiting.entries.slice(1).every((e: any) => e.interrupt === null)).toBe(true);

    const again = await openSqliteStore(file);
    try {
      await buildGraph(new SessionCheckpointSaver(again)).invoke(new Command({ resume: 'yes' }), config);
    } finally {
      await again.close();
    }
    const resumed = await timeline();
    expect(resumed.waiting_on_interrupt).toBe(false);
    const asked = resumed.entries.find((e: any) => e.checkpoint_id === waiting.entries[0].checkpoint_id);
    expect(asked.interrupt).toEqual({ waiting: false, values: ['Send the e-mail?'] });
    expect(resumed.entries[0]).toMatchObject({ nodes: ['approve'], messages_added: [{ role: 'human', text: 'approved: yes' }], interrupt: null });
  }, 120_000);
});
