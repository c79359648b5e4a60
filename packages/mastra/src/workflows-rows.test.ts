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
  it.skipIf(!backend.available)('writes the rows of the run persisted when two runs share a memo key', async () => {
    // The memo keys a run by its workflow name, a NUL and its run id, so (w + "\u0000b", "c") and
    // (w, "b\u0000c") share a key; the memo's entry carries the run's refs and session id
    // (decision record 0056), so the shortcut must check that the entry is of this very run. (A
    // workflow name is also the run record's name, which takes no control character: here the
    // NUL is past the 200 characters of it the record keeps.)
    const { CheckpointWorkflowsStorage } = await import('./index.js');
    const store = await backend.open(backend.target());
    try {
      const workflows = new CheckpointWorkflowsStorage(store);
      const w = 'w'.repeat(200);
      const runs = [{ workflowName: `${w}\u0000b`, runId: 'c' }, { workflowName: w, runId: 'b\u0000c' }];
      for (let i = 0; i < 6; i++) {
        const run = runs[i % 2] as { workflowName: string; runId: string };
        await workflows.persistWorkflowSnapshot({ ...run, snapshot: { runId: run.runId, status: 'running', context: { i } } as never });
      }
      const snapshots = (await store.list({ namespace: 'mastra', limit: 1000 })).filter((r) => r.kind === KINDS.snapshot);
      const seen = snapshots.map((r) => {
        const payload = r.payload as { workflowName: string; runId: string; seq: number; value: { context: { i: number } } };
        return [payload.workflowName, payload.runId, payload.seq, payload.value.context.i, r.sessionId];
      });
      expect(seen.sort((x, y) => (x[3] as number) - (y[3] as number))).toEqual([0, 1, 2, 3, 4, 5].map((i) => {
        const run = runs[i % 2] as { workflowName: string; runId: string };
        return [run.workflowName, run.runId, Math.floor(i / 2) + 1, i, (run.runId.includes('\u0000') ? expect.any(String) : run.runId)];
      }));
      // Each snapshot under its own run's refs: the rows a reader of either run finds.
      for (const run of runs) expect((await workflows.loadWorkflowSnapshot(run))?.context).toEqual({ i: run === runs[0] ? 4 : 5 });
    } finally {
      await store.close();
    }
  });
  it.skipIf(!backend.available)('keeps each snapshot as it was at the call, when the caller changes its object during the await', async () => {
    // The persist of a plain snapshot for a remembered run canonicalises the caller's object
    // without a copy (decision record 0052): before it awaits, and, when the conditional insert is
    // refused, from the row's text. Both paths: the second writer's persist makes the first
    // writer's next one refused.
    const { CheckpointWorkflowsStorage } = await import('./index.js');
    const store = await backend.open(backend.target());
    try {
      const one = new CheckpointWorkflowsStorage(store);
      const other = new CheckpointWorkflowsStorage(store);
      const persist = async (workflows: InstanceType<typeof CheckpointWorkflowsStorage>, step: number): Promise<void> => {
        const snapshot = { runId: 'r1', status: 'running', context: { step, list: [step] } };
        // The caller's Dates too: the refused path's transaction stamps the run after awaits.
        const createdAt = new Date(Date.UTC(2026, 5, 1));
        const updatedAt = new Date(Date.UTC(2026, 5, 1, 0, 0, step));
        const done = workflows.persistWorkflowSnapshot({ workflowName: 'wf', runId: 'r1', snapshot: snapshot as never, createdAt, updatedAt });
        snapshot.context.step = -1;
        snapshot.context.list.push(-1);
        (snapshot as Record<string, unknown>).status = 'failed';
        createdAt.setTime(0);
        updatedAt.setTime(0);
        await done;
        expect(await workflows.loadWorkflowSnapshot({ workflowName: 'wf', runId: 'r1' })).toEqual({ runId: 'r1', status: 'running', context: { step, list: [step] } });
        const run = await workflows.getWorkflowRunById({ runId: 'r1', workflowName: 'wf' });
        expect(new Date(run?.createdAt as Date).toISOString()).toBe('2026-06-01T00:00:00.000Z');
        expect(new Date(run?.updatedAt as Date).getTime()).toBeGreaterThan(0);
      };
      await persist(one, 1); // a new run: the transaction
      await persist(one, 2); // remembered: the conditional insert
      await persist(other, 3); // another writer moves the run on
      await persist(one, 4); // remembered, refused: the transaction with the row's text
      await persist(one, 5);
      const snapshots = (await store.list({ namespace: 'mastra', limit: 1000 })).filter((r) => r.kind === KINDS.snapshot);
      expect(snapshots.map((r) => (r.payload as { value: { context: { step: number } } }).value.context.step).sort()).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await store.close();
    }
  });
});
