import { exportBundle, importBundle, serializeBundle } from '@session-checkpoint/bundle';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointMemoryStorage, CheckpointWorkflowsStorage } from './index.js';
import { mastraThreadState } from './rows/index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * Mastra rows are ordinary rows: an export bundle of the namespace (the format the Python tool
 * reads and writes), imported into another store, answers the same: threads, messages, resources,
 * the versions of a thread's memory, workflow runs and a snapshot larger than a row.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.skipIf(!RUNTIME_OK)('Mastra rows moved with an export bundle', () => {
  it('answer the same in the other store', async () => {
    const [memoryBackend, sqlite] = list;
    if (!memoryBackend || !sqlite) throw new Error('backends missing');
    const source = await sqlite.open(sqlite.target());
    const target = await memoryBackend.open(undefined);
    try {
      const at = new Date(Date.UTC(2026, 0, 1));
      const memory = new CheckpointMemoryStorage(source);
      await memory.saveThread({ thread: { id: 't', resourceId: 'u', title: 'moving', createdAt: at, updatedAt: at } });
      await memory.saveMessages({ messages: [0, 1, 2].map((i) => ({ id: `m${i}`, threadId: 't', resourceId: 'u', role: i % 2 ? ('assistant' as const) : ('user' as const), createdAt: new Date(at.getTime() + i), content: { format: 2 as const, parts: [{ type: 'text' as const, text: `text ${i}` }] } })) });
      await memory.deleteMessages(['m1']);
      await memory.updateResource({ resourceId: 'u', workingMemory: '- likes tea' });
      const workflows = new CheckpointWorkflowsStorage(source);
      await workflows.persistWorkflowSnapshot({ workflowName: 'w', runId: 'r', snapshot: { runId: 'r', status: 'suspended', context: { big: { output: 'y'.repeat(1_500_000) } } } as never });

      const text = serializeBundle(await exportBundle(source, { namespace: 'mastra' }));
      await importBundle(target, text, { apply: true });
      const moved = new CheckpointMemoryStorage(target);
      expect(await moved.listMessages({ threadId: 't', perPage: false })).toEqual(await memory.listMessages({ threadId: 't', perPage: false }));
      expect(await moved.getThreadById({ threadId: 't' })).toEqual(await memory.getThreadById({ threadId: 't' }));
      expect(await moved.getResourceById({ resourceId: 'u' })).toEqual(await memory.getResourceById({ resourceId: 'u' }));
      for (const step of [1, 2, 3]) expect(await mastraThreadState(target, { threadId: 't', step })).toEqual(await mastraThreadState(source, { threadId: 't', step }));
      expect(await new CheckpointWorkflowsStorage(target).loadWorkflowSnapshot({ workflowName: 'w', runId: 'r' })).toEqual(await workflows.loadWorkflowSnapshot({ workflowName: 'w', runId: 'r' }));
      expect((await target.verify()).failures).toEqual([]);
      const rows = await target.list({ namespace: 'mastra', limit: 100 });
      expect(rows.every((r) => r.payloadJson.length <= target.limits.maxPayloadBytes)).toBe(true);
      expect(rows.some((r) => r.kind === 'mastra.part')).toBe(true);
    } finally {
      await source.close();
      await target.close();
    }
  });
});
