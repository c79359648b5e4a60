import { afterAll, describe, expect, it } from 'vitest';
import { KINDS } from './rows/index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * What a persist writes: a snapshot row every time, and the run's record only when the run's
 * status or resource changes (the record read back has its keys sorted, canonical JSON; a
 * comparison by JSON text rewrote it on every persist).
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.skipIf(!RUNTIME_OK).each(list)('persistWorkflowSnapshot rows on $name', (backend) => {
  it.skipIf(!backend.available)('rewrites the run record only when its status or resource changes', async () => {
    const { CheckpointWorkflowsStorage } = await import('./index.js');
    const store = await backend.open(backend.target());
    try {
      const workflows = new CheckpointWorkflowsStorage(store);
      const persist = (status: string, resourceId?: string) => workflows.persistWorkflowSnapshot({ workflowName: 'wf', runId: 'r1', ...(resourceId ? { resourceId } : {}), snapshot: { runId: 'r1', status, context: {} } as never });
      const record = async () => (await store.list({ namespace: 'mastra', limit: 1000 })).filter((r) => r.kind === KINDS.run);
      await persist('running', 'user-1');
      const [first] = await record();
      await persist('running');
      await persist('running', 'user-1');
      expect((await record()).map((r) => r.id)).toEqual([first?.id]);
      await persist('suspended');
      const [second] = await record();
      expect(second?.id).not.toBe(first?.id);
      expect(second?.payload).toMatchObject({ status: 'suspended', resourceId: 'user-1' });
      await persist('suspended', 'user-2');
      expect((await record())[0]?.payload).toMatchObject({ resourceId: 'user-2' });
      expect((await store.list({ namespace: 'mastra', limit: 1000 })).filter((r) => r.kind === KINDS.snapshot)).toHaveLength(5);
    } finally {
      await store.close();
    }
  });
});
