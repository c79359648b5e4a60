import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LibSQLStore } from '@mastra/libsql';
import type { MemoryStorage, WorkflowsStorage } from '@mastra/core/storage';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointMemoryStorage, CheckpointWorkflowsStorage, migrateMastra } from './index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * Moving in from @mastra/libsql: a dry run writes nothing, an applied run copies threads, messages,
 * resources and workflow runs and finds no difference, and a second run copies nothing.
 */

const tmp = mkdtempSync(join(tmpdir(), 'sc-mastra-migrate-'));
const list = backends().filter((b) => b.name === 'sqlite' || b.name === 'postgres');
afterAll(async () => {
  for (const b of list) await b.cleanup();
  rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!RUNTIME_OK).each(list)('migrateMastra from @mastra/libsql into $name', (backend) => {
  it.skipIf(!backend.available)('dry run, copy, verify, and a second run that copies nothing', async () => {
    const libsql = new LibSQLStore({ id: `src-${backend.name}`, url: `file:${join(tmp, `${backend.name}.db`)}` });
    await libsql.init();
    const memory = (await libsql.getStore('memory')) as MemoryStorage;
    const workflows = (await libsql.getStore('workflows')) as WorkflowsStorage;
    const t0 = Date.UTC(2026, 0, 1);
    for (const t of ['a', 'b']) {
      await memory.saveThread({ thread: { id: `thread-${t}`, resourceId: 'user-1', title: `Thread ${t}`, metadata: { topic: t }, createdAt: new Date(t0), updatedAt: new Date(t0) } });
      await memory.saveMessages({
        messages: Array.from({ length: 30 }, (_, i) => ({ id: `${t}-${i}`, threadId: `thread-${t}`, resourceId: 'user-1', role: i % 2 ? ('assistant' as const) : ('user' as const), createdAt: new Date(t0 + i * 1000), content: { format: 2 as const, parts: [{ type: 'text' as const, text: `message ${i}` }], metadata: { i } } })),
      });
    }
    await memory.updateResource({ resourceId: 'user-1', workingMemory: '# User\n- name: Ada' });
    await workflows.persistWorkflowSnapshot({ workflowName: 'payout', runId: 'run-1', resourceId: 'user-1', snapshot: { runId: 'run-1', status: 'suspended', context: { approve: { status: 'suspended' } }, value: {}, activePaths: [], serializedStepGraph: [], suspendedPaths: { approve: [1] }, waitingPaths: {}, timestamp: t0 } as never });

    const store = await backend.open(backend.target());
    try {
      const target = { memory: new CheckpointMemoryStorage(store), workflows: new CheckpointWorkflowsStorage(store) };
      const source = { memory, workflows };
      const dry = await migrateMastra(source, target);
      expect(dry).toMatchObject({ dryRun: true, threads: 2, messages: 60, resources: 1, runs: 1, present: 0 });
      expect((await store.verify()).checked).toBe(0);
      const applied = await migrateMastra(source, target, { apply: true });
      expect(applied).toMatchObject({ dryRun: false, threads: 2, messages: 60, resources: 1, runs: 1, differences: [] });
      const again = await migrateMastra(source, target, { apply: true });
      expect(again).toMatchObject({ threads: 0, messages: 0, resources: 0, runs: 0, present: 64, differences: [] });
      expect((await target.memory.getResourceById({ resourceId: 'user-1' }))?.workingMemory).toBe('# User\n- name: Ada');
      // The copy keeps the thread's updatedAt (the messages copied do not touch it).
      for (const id of ['thread-a', 'thread-b']) expect((await target.memory.getThreadById({ threadId: id }))?.updatedAt).toEqual((await memory.getThreadById({ threadId: id }))?.updatedAt);
      expect((await target.memory.listMessages({ threadId: 'thread-a', perPage: 20, page: 1 })).messages.map((m) => m.id)).toEqual(Array.from({ length: 10 }, (_, i) => `a-${20 + i}`));
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
