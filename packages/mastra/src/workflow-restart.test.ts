import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointWorkflowsStorage } from './index.js';
import { mastraRunState, mastraRunTimeline, mastraRuns } from './rows/index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * As a user would: a workflow suspends in one process (waiting for an approval), the process
 * ends, and a new process resumes the run from the stored snapshot to its result. Every snapshot
 * persisted on the way is kept, so the run's states can be walked back.
 */

const script = join(dirname(fileURLToPath(import.meta.url)), 'test-support', 'workflow-child.mjs');

function child(...args: string[]): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    p.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    p.on('close', (code) => resolve({ code, lines: out.trim().split('\n').filter(Boolean), stderr: err }));
  });
}

const list = backends().filter((b) => b.name !== 'memory');
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.skipIf(!RUNTIME_OK).each(list)('a suspended workflow on $name', (backend) => {
  it.skipIf(!backend.available)('survives a restart and resumes in a new process', async () => {
    const target = backend.target() as string;
    const started = await child(target, 'start', 'run-1');
    expect(started.code, started.stderr).toBe(0);
    expect(JSON.parse(started.lines.at(-1) ?? '{}')).toMatchObject({ status: 'suspended' });

    const store = await backend.open(target);
    try {
      const workflows = new CheckpointWorkflowsStorage(store);
      const suspended = await workflows.loadWorkflowSnapshot({ workflowName: 'payout', runId: 'run-1' });
      expect(suspended?.status).toBe('suspended');
      expect((await workflows.listWorkflowRuns({ status: 'suspended' })).runs.map((r) => r.runId)).toEqual(['run-1']);
    } finally {
      await store.close();
    }

    const resumed = await child(target, 'resume', 'run-1');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.lines.at(-1) ?? '{}')).toMatchObject({ status: 'success', result: { amount: 42, approvedBy: 'ops' } });

    const after = await backend.open(target);
    try {
      const workflows = new CheckpointWorkflowsStorage(after);
      const run = await workflows.getWorkflowRunById({ runId: 'run-1', workflowName: 'payout' });
      expect((run?.snapshot as { status?: string }).status).toBe('success');
      // Every persisted snapshot is a row of its own: the suspended state is still there.
      const versions = await after.listBySourceRefPrefix({ namespace: 'mastra', prefix: 's/payout/run-1/', limit: 100 });
      expect(versions.length).toBeGreaterThanOrEqual(2);
      expect(versions.map((v) => (v.payload as { value?: { status?: string } }).value?.status)).toContain('suspended');
      // The framework-free readers walk the same versions.
      expect(await mastraRuns(after)).toMatchObject([{ family: 'mastra-workflow', workflow_name: 'payout', run_id: 'run-1', status: 'success' }]);
      const { entries } = await mastraRunTimeline(after, { workflowName: 'payout', runId: 'run-1' });
      expect(entries.length).toBe(versions.length);
      expect(entries.every((e) => e.status === 'verified')).toBe(true);
      const suspendedAt = entries.find((e) => e.run_status === 'suspended');
      expect((await mastraRunState(after, { workflowName: 'payout', runId: 'run-1', seq: Number(suspendedAt?.checkpoint_id) })).snapshot).toMatchObject({ status: 'suspended' });
      expect((await mastraRunState(after, { workflowName: 'payout', runId: 'run-1' })).snapshot).toEqual(run?.snapshot);
      expect((await after.verify()).failures).toEqual([]);
    } finally {
      await after.close();
    }
  });
});
