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
import { startInspect } from './test-support/inspect-server.js';
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

  it("the inspector's story counts children over the whole thread: a resumed interrupt newest on a later page is not waiting", async () => {
    const dir = tempDir('sc-story-interrupt-');
    const file = join(dir, 'app.sqlite');
    const config = { configurable: { thread_id: 'mail' } };
    const store = await openSqliteStore(file);
    try {
      const graph = buildGraph(new SessionCheckpointSaver(store));
      await graph.invoke({ messages: [new HumanMessage('Mail Bob the report.')] }, config);
      await graph.invoke(new Command({ resume: 'yes' }), config);
    } finally {
      await store.close();
    }
    const inspector = await startInspect(['--store', file, '--no-open'], dir);
    try {
      const get = async (path: string) => {
        const response = await fetch(`http://127.0.0.1:${inspector.port}${path}`, { headers: { 'x-session-checkpoint-token': inspector.token } });
        expect(response.status, path).toBe(200);
        return (await response.json()) as any;
      };
      const ref = 'family=langgraph&namespace=langgraph&thread=mail';
      const all = await get(`/api/timeline?${ref}`);
      const whole = await get(`/api/story?${ref}`);
      const asked = all.entries.findIndex((e: any) => whole.stories[e.checkpoint_id].interrupt !== null);
      // The interrupted step has a child (the resumed run), so it is not the newest.
      expect(asked).toBeGreaterThan(0);
      const id = all.entries[asked].checkpoint_id;
      expect(whole.stories[id].interrupt).toEqual({ waiting: false, values: ['Send the e-mail?'] });
      // A page that starts at the interrupted step: its child sits on the page before.
      const first = await get(`/api/timeline?${ref}&limit=${asked}`);
      expect(first.next_cursor).not.toBeNull();
      const later = await get(`/api/story?${ref}&limit=${asked}&cursor=${encodeURIComponent(first.next_cursor)}`);
      expect(Object.keys(later.stories)[0]).toBe(id);
      expect(later.stories[id].interrupt).toEqual({ waiting: false, values: ['Send the e-mail?'] });
    } finally {
      await inspector.stop();
    }
  }, 120_000);
});
