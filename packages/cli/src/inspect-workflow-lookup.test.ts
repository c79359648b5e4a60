/**
 * A Mastra workflow run is found by its own record (`mastraRunWorkflows`): `state --checkpoint-ns`
 * reads that run's record only, and without it `state` and `timeline` read only the records of
 * that run id, through the real binary over a SQLite store written by `CheckpointWorkflowsStorage`. A
 * tampered record of another run does not stop them (they used to verify every run record of the
 * namespace on every call), while a run whose own record is tampered still fails closed.
 *
 * Needs Node 22.13 (`@mastra/core@1`): skipped, visibly, on an older Node; CI's Node 24 pass runs it.
 */
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, runCli, tempDir } from './test-support/run-cli.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const RUNTIME_OK = major > 22 || (major === 22 && minor >= 13);
if (!RUNTIME_OK) console.warn(`Node ${process.version}: the Mastra workflow lookup test is SKIPPED: @mastra/core@1 needs Node 22.13 or later; CI runs it in its Node 24 pass`);

const dir = tempDir('sc-workflow-lookup-');
const file = join(dir, 'app.sqlite');
afterAll(() => removeTempDirs());

describe.skipIf(!RUNTIME_OK)('finding the workflow of a Mastra run', () => {
  beforeAll(async () => {
    const { CheckpointWorkflowsStorage } = await import('@session-checkpoint/mastra');
    const store = await openSqliteStore(file);
    try {
      const workflows = new CheckpointWorkflowsStorage(store);
      // run-1 in two workflows; run-2 and a run whose id needs escaping in payout only.
      for (const [workflowName, runId, status] of [
        ['payout', 'run-1', 'success'],
        ['refund', 'run-1', 'suspended'],
        ['payout', 'run-2', 'running'],
        ['payout', 'a/b%c', 'success'],
      ] as const) {
        const snapshot = { runId, status, value: {}, context: {}, activePaths: [], serializedStepGraph: [], suspendedPaths: {}, waitingPaths: {}, resumeLabels: {}, timestamp: 1_000 };
        await workflows.persistWorkflowSnapshot({ workflowName, runId, resourceId: 'user-1', snapshot: snapshot as never });
      }
    } finally {
      await store.close();
    }
    // Tamper with run-2's record (not its snapshot).
    const db = new Database(file);
    try {
      const changed = db.prepare("UPDATE checkpoints SET payload_json = replace(payload_json, 'running', 'success') WHERE source_ref = 'w/payout/run-2'").run().changes;
      expect(changed).toBe(1);
    } finally {
      db.close();
    }
  }, 600_000);

  const cli = async (args: string[]) => {
    const r = await runCli([...args, '--store', file], { cwd: dir });
    return JSON.parse(r.stdout) as { ok: boolean; result?: any; error?: string; type?: string };
  };

  it('reads a named run past a tampered record of another run (the old code failed here)', async () => {
    expect(await cli(['state', '--family', 'mastra-workflow', '--thread', 'run-1', '--checkpoint-ns', 'payout'])).toMatchObject({ ok: true, result: { workflow_name: 'payout', run_id: 'run-1', seq: 1, snapshot: { status: 'success' } } });
    expect(await cli(['state', '--family', 'mastra-workflow', '--thread', 'run-1', '--checkpoint-ns', 'refund'])).toMatchObject({ ok: true, result: { workflow_name: 'refund', snapshot: { status: 'suspended' } } });
    expect(await cli(['timeline', '--family', 'mastra-workflow', '--thread', 'a/b%c'])).toMatchObject({ ok: true, result: { count: 1 } });
    // timeline takes --checkpoint-ns as state does (it asked for one workflow before).
    expect(await cli(['timeline', '--family', 'mastra-workflow', '--thread', 'run-1', '--checkpoint-ns', 'refund'])).toMatchObject({ ok: true, result: { count: 1 } });
    expect(await cli(['state', '--family', 'mastra-workflow', '--thread', 'a/b%c'])).toMatchObject({ ok: true, result: { workflow_name: 'payout', run_id: 'a/b%c' } });
  });

  it('without --checkpoint-ns, a run id in two workflows asks for one; an unknown run is not found', async () => {
    const both = await cli(['state', '--family', 'mastra-workflow', '--thread', 'run-1']);
    expect(both).toMatchObject({ ok: false, type: 'CheckpointValidationError' });
    expect(both.error).toContain('several workflows (payout, refund)');
    expect(await cli(['state', '--family', 'mastra-workflow', '--thread', 'run-3'])).toMatchObject({ ok: false, type: 'CheckpointNotFoundError' });
    expect(await cli(['state', '--family', 'mastra-workflow', '--thread', 'run-1', '--checkpoint-ns', 'nowhere'])).toMatchObject({ ok: false, type: 'CheckpointNotFoundError' });
    // "b%c" alone is not the run "a/b%c" (its ref's last part is escaped).
    expect(await cli(['state', '--family', 'mastra-workflow', '--thread', 'b%c'])).toMatchObject({ ok: false, type: 'CheckpointNotFoundError' });
  });

  it('a run whose own record is tampered still fails closed, with or without --checkpoint-ns', async () => {
    for (const ns of [['--checkpoint-ns', 'payout'], []]) {
      expect(await cli(['state', '--family', 'mastra-workflow', '--thread', 'run-2', ...ns])).toMatchObject({ ok: false, type: 'CheckpointIntegrityError' });
    }
  });
});
