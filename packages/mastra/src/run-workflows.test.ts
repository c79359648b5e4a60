import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { KINDS, mastraRunWorkflows, type StoredRun } from './rows/index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * `mastraRunWorkflows` finds a run's workflows by the run's own record (a source-ref read when the
 * workflow is named, else the refs of this run id only): generated runs (ids with "/", "%", "~",
 * long ids that refs hash) compared with a scan of every run record, which is what the CLI did
 * before. Fails if the ref matching skips a run of that id or takes one of another id.
 */

const list = backends().filter((b) => b.name !== 'postgres');
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

const id = fc.oneof(fc.constantFrom('a', 'b', 'a/b', 'b%', '~', 'a'.repeat(90), 'a'.repeat(91)), fc.string({ minLength: 1, maxLength: 4, unit: fc.constantFrom('a', 'b', '/', '%', '~', 'é') }));

describe.skipIf(!RUNTIME_OK).each(list)('mastraRunWorkflows on $name', (backend) => {
  it('answers as a scan of every run record does', async () => {
    const { CheckpointWorkflowsStorage } = await import('./index.js');
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.tuple(id, id), { minLength: 1, maxLength: 8, selector: ([w, r]) => `${w}\u0000${r}` }), fc.array(fc.tuple(id, fc.option(id, { nil: undefined })), { minLength: 1, maxLength: 6 }), async (runs, asks) => {
        const store = await backend.open(backend.target());
        try {
          const workflows = new CheckpointWorkflowsStorage(store);
          for (const [workflowName, runId] of runs) await workflows.persistWorkflowSnapshot({ workflowName, runId, snapshot: { runId, status: 'running', context: {} } as never });
          const all = (await store.listBySourceRefPrefix({ namespace: 'mastra', prefix: 'w/', limit: 100_000, kind: KINDS.run })).map((row) => row.payload as unknown as StoredRun);
          // Every run asked for, under its workflow and without, and ids that may hold no run.
          for (const [runId, workflowName] of [...runs.map(([w, r]) => [r, w] as const), ...runs.map(([, r]) => [r, undefined] as const), ...asks]) {
            const expected = all.filter((r) => r.runId === runId && (workflowName === undefined || r.workflowName === workflowName)).map((r) => r.workflowName);
            expect(await mastraRunWorkflows(store, { runId, ...(workflowName === undefined ? {} : { workflowName }) })).toEqual(expected);
          }
        } finally {
          await store.close();
        }
      }),
      { numRuns: 40 },
    );
  });
});
