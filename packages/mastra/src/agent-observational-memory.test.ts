import { afterAll, describe, expect, it } from 'vitest';
import { mastraObservationalMemory, mastraObservationalMemoryVersion } from './rows/index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * As a user would: a Mastra Agent whose Memory has observational memory on (the observer a
 * scripted model), over this package's storage. Past the message-token threshold Mastra's
 * observer writes observations to the store; an agent on the store opened again is given them;
 * Memory's deleteThread clears them.
 */

const OBSERVED = 'User is Ada and likes green tea';
const list = backends().filter((b) => b.name !== 'memory');
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.skipIf(!RUNTIME_OK).each(list)('a Mastra agent with observational memory on $name', (backend) => {
  it.skipIf(!backend.available)('observes past the threshold, and a new agent on the reopened store is given the observations', async () => {
    const { Agent } = await import('@mastra/core/agent');
    const { Memory } = await import('@mastra/memory');
    const { createMockModel } = await import('@mastra/core/test-utils/llm-mock');
    const { createMastraStorage } = await import('./index.js');
    const observer = createMockModel({ version: 'v2', mockText: `<observations>\n* 🔴 (10:00) ${OBSERVED}\n</observations>\n<current-task>chat about tea</current-task>` });
    const options = { lastMessages: 20, observationalMemory: { model: observer, scope: 'thread' as const, observation: { messageTokens: 60, bufferTokens: false as const }, reflection: { observationTokens: 100_000 } } };
    const target = backend.target();
    let store = await backend.open(target);
    try {
      const storage = createMastraStorage(store);
      const memory = new Memory({ storage, options });
      const agent = new Agent({ id: 'assistant', name: 'assistant', instructions: 'Remember what the user says.', model: createMockModel({ version: 'v2', mockText: 'noted' }), memory });
      for (let turn = 0; turn < 3; turn++) {
        await agent.generate(`My name is Ada and I like green tea. ${'Here are more words about my day. '.repeat(8)} Turn ${turn}.`, { memory: { thread: 'thread-1', resource: 'user-1' } });
      }
      const domain = await storage.getStore('memory');
      const record = await domain?.getObservationalMemory('thread-1', 'user-1');
      expect(record?.activeObservations).toContain(OBSERVED);
      expect(record?.lastObservedAt).toBeInstanceOf(Date);
      // Every update Mastra made is a version in the store.
      const [summary] = await mastraObservationalMemory(store, { threadId: 'thread-1', resourceId: 'user-1' });
      expect(summary?.versions).toBeGreaterThan(2);
      expect((await mastraObservationalMemoryVersion(store, { recordId: record?.id as string, version: 1 })).record.activeObservations).toBe('');
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }

    store = await backend.open(target);
    try {
      let prompt: unknown;
      const storage = createMastraStorage(store);
      const memory = new Memory({ storage, options });
      const model = createMockModel({ version: 'v2', mockText: 'you like green tea', spyGenerate: (p: unknown) => (prompt = p), spyStream: (p: unknown) => (prompt = p) });
      const agent = new Agent({ id: 'assistant', name: 'assistant', instructions: 'Remember what the user says.', model, memory });
      await agent.generate('What do I like?', { memory: { thread: 'thread-1', resource: 'user-1' } });
      expect(JSON.stringify(prompt)).toContain(OBSERVED);
      // Memory's deleteThread clears the thread's observational memory (the storage call leaves it).
      await memory.deleteThread('thread-1');
      expect(await (await storage.getStore('memory'))?.getObservationalMemory('thread-1', 'user-1')).toBeNull();
    } finally {
      await store.close();
    }
  });
});
