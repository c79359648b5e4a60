import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { readFixtureJson } from '@session-checkpoint/fixtures';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { mastraObservationalMemoryVersion, mastraRunState, mastraRunTimeline, mastraThreadState, mastraThreadTimeline } from './rows/index.js';
import { RUNTIME_OK, tempDir } from './test-support/backends.js';

/*
 * Mastra rows through the Python tool (CPython, the reference's store operations as
 * store-kysely's test-support/python_reference_ops.py models them): it opens the file, verifies
 * every row (canonical JSON, SHA-256), exports a bundle in its layout and imports it into a new
 * store file; that file, opened here, gives the same threads, messages, resources, memory
 * versions, observational-memory records and their versions, and workflow snapshots (one larger
 * than a row, cut over part rows), and verifies.
 */

const SCRIPT = fileURLToPath(new URL('../../store-kysely/src/test-support/python_reference_ops.py', import.meta.url));
const python = spawnSync('python3', ['-c', 'import sqlite3'], { encoding: 'utf8' });
if (python.status !== 0) console.warn('python3 with sqlite3 is not available: the Python round trip of Mastra rows is SKIPPED');
const { schema_sql } = readFixtureJson<{ schema_sql: string[] }>('py-store.manifest.json');
const tmp = tempDir();
afterAll(() => tmp.remove());

describe.skipIf(python.status !== 0 || !RUNTIME_OK)('Mastra rows in the Python tool', () => {
  it('are verified, exported and imported by it, and read back the same', async () => {
    const { CheckpointMemoryStorage, CheckpointWorkflowsStorage } = await import('./index.js');
    const file = join(tmp.dir, 'mastra.sqlite');
    const store = await openSqliteStore(file);
    const at = new Date(Date.UTC(2026, 0, 1));
    const memory = new CheckpointMemoryStorage(store);
    const workflows = new CheckpointWorkflowsStorage(store);
    await memory.saveThread({ thread: { id: 'thread-é', resourceId: 'user-1', title: 'café ☕', metadata: { n: 1.5, big: 2 ** 53 - 1 }, createdAt: at, updatedAt: at } });
    await memory.saveMessages({ messages: [0, 1, 2, 3].map((i) => ({ id: `m${i}`, threadId: 'thread-é', resourceId: 'user-1', role: i % 2 ? ('assistant' as const) : ('user' as const), createdAt: new Date(at.getTime() + i * 1000), content: { format: 2 as const, parts: [{ type: 'text' as const, text: `text ${i} 😀` }] } })) });
    await memory.deleteMessages(['m1']);
    // A batch larger than a change row keeps inline (16 KiB): its messages go to part rows of the change.
    await memory.saveMessages({ messages: Array.from({ length: 40 }, (_, i) => ({ id: `b${i}`, threadId: 'thread-é', resourceId: 'user-1', role: 'user' as const, createdAt: new Date(at.getTime() + 10_000 + i), content: { format: 2 as const, parts: [{ type: 'text' as const, text: `batch ${i} ${'ü'.repeat(600)}` }] } })) });
    await memory.updateResource({ resourceId: 'user-1', workingMemory: '# User\n- likes tea' });
    // Observational memory: a record with versions, one larger than a row (part rows).
    const om = await memory.initializeObservationalMemory({ threadId: 'thread-é', resourceId: 'user-1', scope: 'thread', config: { observation: { messageTokens: 1000 } } });
    await memory.updateActiveObservations({ id: om.id, observations: `- likes tea ☕\n${'- ü observation\n'.repeat(80_000)}`, tokenCount: 12, lastObservedAt: at, observedMessageIds: ['m0'] });
    await memory.setObservingFlag(om.id, true);
    await workflows.persistWorkflowSnapshot({ workflowName: 'payout', runId: 'run-1', snapshot: { runId: 'run-1', status: 'running', context: {} } as never });
    await workflows.persistWorkflowSnapshot({ workflowName: 'payout', runId: 'run-1', snapshot: { runId: 'run-1', status: 'suspended', context: { big: { output: 'y'.repeat(1_200_000) } } } as never });
    const read = async (s: typeof store) => ({
      messages: await new CheckpointMemoryStorage(s).listMessages({ threadId: 'thread-é', perPage: false }),
      thread: await new CheckpointMemoryStorage(s).getThreadById({ threadId: 'thread-é' }),
      resource: await new CheckpointMemoryStorage(s).getResourceById({ resourceId: 'user-1' }),
      om: await new CheckpointMemoryStorage(s).getObservationalMemoryHistory('thread-é', 'user-1'),
      omVersions: await Promise.all([1, 2, 3].map((version) => mastraObservationalMemoryVersion(s, { recordId: om.id, version }))),
      versions: await Promise.all([1, 2, 3, 4].map((step) => mastraThreadState(s, { threadId: 'thread-é', step }))),
      changes: await mastraThreadTimeline(s, { threadId: 'thread-é' }),
      snapshot: await new CheckpointWorkflowsStorage(s).loadWorkflowSnapshot({ workflowName: 'payout', runId: 'run-1' }),
      first: await mastraRunState(s, { workflowName: 'payout', runId: 'run-1', seq: 1 }),
      snapshots: (await mastraRunTimeline(s, { workflowName: 'payout', runId: 'run-1' })).entries.map(({ row_id, ...e }) => e),
    });
    const before = await read(store);
    await store.close();

    const copy = join(tmp.dir, 'python-copy.sqlite');
    const run = spawnSync('python3', [SCRIPT, file, copy, join(tmp.dir, 'bundle.json'), JSON.stringify(schema_sql)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(run.stderr).toBe('');
    const summary = JSON.parse(run.stdout) as { exported: number[]; inserted: number[]; listed: Record<string, number[]> };
    expect(summary.inserted).toEqual(summary.exported);
    expect(Object.keys(summary.listed)).toEqual(['mastra']);

    const back = await openSqliteStore(copy, { create: false });
    try {
      const after = await read(back);
      expect(after).toEqual(before);
      expect((await back.list({ namespace: 'mastra', limit: 1000 })).some((r) => r.kind === 'mastra.part')).toBe(true);
      expect((await back.list({ namespace: 'mastra', limit: 1000 })).some((r) => r.kind === 'mastra.part' && r.sourceRef?.startsWith('p/c/'))).toBe(true);
      expect(after.versions[3]?.messages).toHaveLength(43);
      expect(after.om[0]?.activeObservations).toMatch(/^- likes tea ☕/);
      expect((await back.list({ namespace: 'mastra', limit: 1000 })).some((r) => r.kind === 'mastra.part' && r.sourceRef?.startsWith('p/o/'))).toBe(true);
      expect(after.omVersions.map((v) => v.op)).toEqual(['initialize', 'updateActiveObservations', 'set isObserving']);
      expect((await back.verify()).failures).toEqual([]);
    } finally {
      await back.close();
    }
  });
});
