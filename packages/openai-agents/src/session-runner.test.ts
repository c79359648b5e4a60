import { Agent, MemorySession, run, tool, type AgentInputItem, type Session } from '@openai/agents';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CheckpointSession } from './index.js';
import { backends } from './test-support/backends.js';
import { ScriptedModel } from './test-support/scripted-model.js';

process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';

const TURNS = ['Hello there', 'What is the weather in Paris?', 'Thanks!', 'And the weather tomorrow?', 'Bye'];

/** Runs the same conversation through the real SDK runner on `session`. */
async function converse(session: Session): Promise<string[]> {
  const getWeather = tool({
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => `sunny in ${city}`,
  });
  const agent = new Agent({ name: 'helper', instructions: 'Be brief.', model: new ScriptedModel(), tools: [getWeather] });
  const answers: string[] = [];
  for (const turn of TURNS) answers.push(String((await run(agent, turn, { session })).finalOutput));
  return answers;
}

const all = backends();
afterAll(async () => {
  for (const b of all) await b.cleanup();
});

describe.each(all)('the SDK runner on CheckpointSession ($name)', (backend) => {
  it.skipIf(!backend.available)('keeps the same items as MemorySession over several turns, and the same answers', async () => {
    const reference = new MemorySession({ sessionId: 'chat-1' });
    const expectedAnswers = await converse(reference);
    const store = await backend.open(backend.target());
    try {
      const session = new CheckpointSession(store, { sessionId: 'chat-1' });
      expect(await converse(session)).toEqual(expectedAnswers);
      const expected = await reference.getItems();
      // The runner saw its own history: later echoes count the items of earlier turns.
      expect(expectedAnswers.at(-1)).toMatch(/of \d{2} items/);
      expect(expected.map((item) => item.type ?? 'message')).toContain('function_call_result');
      expect(await session.getItems()).toEqual(expected);
      for (const limit of [0, 1, 3, expected.length, expected.length + 5]) {
        expect(await session.getItems(limit)).toEqual(await reference.getItems(limit));
      }
      expect(await session.popItem()).toEqual(await reference.popItem());
      expect(await session.getItems()).toEqual(await reference.getItems());
      await session.clearSession();
      await reference.clearSession();
      expect(await session.getItems()).toEqual([]);
      expect(await session.popItem()).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('rewrites history like MemorySession: compaction, function-call mutations, empty adds', async () => {
    const store = await backend.open(backend.target());
    try {
      const session = new CheckpointSession(store, { sessionId: 'rewrite' });
      const reference = new MemorySession({ sessionId: 'rewrite' });
      const items: AgentInputItem[] = [
        { type: 'message', role: 'user', content: 'q1' },
        { type: 'function_call', callId: 'c1', name: 'f', arguments: '{"a":1}', status: 'completed' },
        { type: 'function_call_result', callId: 'c1', name: 'f', status: 'completed', output: 'r1' },
        { type: 'function_call', callId: 'c1', name: 'f', arguments: '{"dup":true}', status: 'completed' },
        { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'a1' }] },
      ];
      for (const s of [session, reference]) {
        await s.addItems([]);
        await s.addItems(items);
        await s.applyHistoryMutations({
          mutations: [{ type: 'replace_function_call', callId: 'c1', replacement: { type: 'function_call', callId: 'c1', name: 'f', arguments: '{"a":2}', status: 'completed' } }],
        });
      }
      expect(await session.getItems()).toEqual(await reference.getItems());
      expect(await session.getItems()).toHaveLength(4);
      const compacted: AgentInputItem[] = [{ type: 'compaction', encrypted_content: 'opaque' } as AgentInputItem, items[4] as AgentInputItem];
      await session.replaceHistoryWithCompaction(compacted);
      expect(await session.getItems()).toEqual(compacted);
      await session.addItems([{ type: 'message', role: 'user', content: 'q2' }]);
      expect((await session.getItems(1))[0]).toEqual({ type: 'message', role: 'user', content: 'q2' });
      expect(await session.getSessionId()).toBe('rewrite');
    } finally {
      await store.close();
    }
  });
});

describe('CheckpointSession ids', () => {
  it('makes a session id when none is given, and keeps it', async () => {
    const store = await all[0]!.open(undefined);
    const session = new CheckpointSession(store);
    const id = await session.getSessionId();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await session.getSessionId()).toBe(id);
    await session.addItems([{ role: 'user', content: 'hi' }]);
    expect(await new CheckpointSession(store, { sessionId: id }).getItems()).toEqual([{ role: 'user', content: 'hi' }]);
    expect(await new CheckpointSession(store).getItems()).toEqual([]);
  });
});
