import type { AgentInputItem } from '@openai/agents-core';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointSession } from '../index.js';
import { backends } from '../test-support/backends.js';
import { agentSessions, sessionState, sessionTimeline } from './index.js';

/*
 * The framework-free readers give what the session gives, on every backend: the items of
 * `getItems()` (binary fields, an item split over part rows, a trimmed start included), the items
 * up to each position, one timeline entry per batch, and the session in the listing.
 */

const large = 'x'.repeat(1_500_000);
const batches: AgentInputItem[][] = [
  [{ role: 'user', content: 'first' }],
  [
    { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'second' }] },
    { type: 'function_call_result', callId: 'c', name: 'snap', status: 'completed', output: [{ type: 'image', image: { data: new Uint8Array([0, 1, 250]), mediaType: 'image/png' } }] },
  ] as AgentInputItem[],
  [{ role: 'user', content: large }],
  [{ role: 'user', content: 'last' }],
];

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.each(list)('the session rows readers on $name', (backend) => {
  it.skipIf(!backend.available)('give getItems, every prefix, a timeline per batch and the listing', async () => {
    const store = await backend.open(backend.target());
    try {
      const session = new CheckpointSession(store, { sessionId: 'user-42' });
      for (const batch of batches) await session.addItems(batch);
      const items = await session.getItems();
      const state = await sessionState(store, { sessionId: 'user-42' });
      expect(state).toEqual({ family: 'openai-agents', namespace: 'openai-agents', session_id: 'user-42', position: 5, items });
      for (let n = 0; n <= items.length; n++) expect((await sessionState(store, { sessionId: 'user-42', position: n })).items).toEqual(items.slice(0, n));

      const entries = [];
      let cursor: string | undefined;
      do {
        const page = await sessionTimeline(store, { sessionId: 'user-42', limit: 3, ...(cursor === undefined ? {} : { cursor }) });
        entries.push(...page.entries);
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
      expect(entries.map((e) => [e.first_position, e.position, e.items, e.status])).toEqual([
        [5, 5, 1, 'verified'],
        [4, 4, 1, 'verified'],
        [2, 3, 2, 'verified'],
        [1, 1, 1, 'verified'],
      ]);
      // The large item's part rows count towards its step.
      expect(entries[1]?.bytes).toBeGreaterThan(large.length);

      expect(await agentSessions(store)).toMatchObject([{ family: 'openai-agents', thread_id: 'user-42', count: 5 }]);

      // A trimmed start: positions go on, the state starts later.
      const trimmed = new CheckpointSession(store, { sessionId: 'short', maxItems: 2 });
      for (const batch of batches) await trimmed.addItems(batch);
      const kept = await trimmed.getItems();
      expect((await sessionState(store, { sessionId: 'short' })).items).toEqual(kept);
      expect((await agentSessions(store, { sessionId: 'short' }))[0]?.count).toBe(kept.length);
    } finally {
      await store.close();
    }
  });
});
