import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LibSQLStore } from '@mastra/libsql';
import fc from 'fast-check';
import type { MemoryStorage, ObservationalMemoryRecord, WorkflowsStorage } from '@mastra/core/storage';
import { CheckpointValidationError } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointMemoryStorage, CheckpointWorkflowsStorage, migrateMastra } from './index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * Moving in from @mastra/libsql: a dry run writes nothing, an applied run copies threads, messages,
 * resources, observational memory and workflow runs and finds no difference, an interrupted run
 * finishes when run again, a second run copies nothing, and the verification finds a changed record.
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

/** A thread-scoped or resource-scoped OM record as `insertObservationalMemoryRecord` takes it. */
function omRecord(id: string, threadId: string | null, generationCount: number, at: number): ObservationalMemoryRecord {
  return {
    id,
    scope: threadId ? 'thread' : 'resource',
    threadId,
    resourceId: 'user-1',
    createdAt: new Date(at),
    updatedAt: new Date(at + 500),
    lastObservedAt: new Date(at + 100),
    originType: generationCount > 0 ? 'reflection' : 'initial',
    generationCount,
    activeObservations: `observations of ${id}`,
    totalTokensObserved: 40,
    observationTokenCount: 20,
    pendingMessageTokens: 7,
    isReflecting: false,
    isObserving: true,
    isBufferingObservation: false,
    isBufferingReflection: false,
    lastBufferedAtTokens: 3,
    lastBufferedAtTime: new Date(at + 200),
    config: { observation: { messageTokens: 300 } },
    metadata: { from: id },
    observedMessageIds: ['m1', 'm2'],
    observedTimezone: 'Europe/Paris',
    bufferedObservationChunks: [{ id: `ombuf-${id}`, cycleId: `cycle-${id}`, observations: 'buffered', tokenCount: 5, messageIds: ['m3'], messageTokens: 700, lastObservedAt: new Date(at + 300), createdAt: new Date(at + 400) }],
  };
}

/** Every OM record of a key, newest first, as ids. */
async function omIds(memory: MemoryStorage, threadId: string | null): Promise<string[]> {
  return (await memory.getObservationalMemoryHistory(threadId, 'user-1', 1000)).map((r) => r.id);
}

describe.skipIf(!RUNTIME_OK).each(list)('migrateMastra of observational memory from @mastra/libsql into $name', (backend) => {
  it.skipIf(!backend.available)('dry run, an interrupted copy resumed, verify, a second run, and a changed record found', async () => {
    const libsql = new LibSQLStore({ id: `om-${backend.name}`, url: `file:${join(tmp, `om-${backend.name}.db`)}` });
    await libsql.init();
    const memory = (await libsql.getStore('memory')) as MemoryStorage;
    const t0 = Date.UTC(2026, 0, 1);
    for (const t of ['a', 'b']) await memory.saveThread({ thread: { id: `thread-${t}`, resourceId: 'user-1', title: `Thread ${t}`, metadata: {}, createdAt: new Date(t0), updatedAt: new Date(t0) } });
    // thread-a: three generations made by Mastra's own calls, the newest with a chunk still buffered.
    let current = await memory.initializeObservationalMemory({ threadId: 'thread-a', resourceId: 'user-1', scope: 'thread', config: { observation: { messageTokens: 100 } }, observedTimezone: 'UTC' });
    await memory.updateBufferedObservations({ id: current.id, chunk: { cycleId: 'c1', observations: '- the user is Ada', tokenCount: 6, messageIds: ['a-1'], messageTokens: 120, lastObservedAt: new Date(t0 + 1000) }, lastBufferedAtTime: new Date(t0 + 1001) });
    await memory.updateActiveObservations({ id: current.id, observations: '- the user is Ada', tokenCount: 6, lastObservedAt: new Date(t0 + 2000), observedMessageIds: ['a-1'] });
    for (const g of [1, 2]) {
      current = await memory.createReflectionGeneration({ currentRecord: (await memory.getObservationalMemory('thread-a', 'user-1')) as ObservationalMemoryRecord, reflection: `reflection ${g}`, tokenCount: 3 * g });
      await memory.updateBufferedObservations({ id: current.id, chunk: { cycleId: `c${g + 1}`, observations: `- seen in generation ${g}`, tokenCount: 4, messageIds: [`a-${g + 1}`], messageTokens: 90, lastObservedAt: new Date(t0 + 3000 * g) } });
    }
    await memory.setPendingMessageTokens(current.id, 55);
    // thread-b: two records of one generation (Mastra's thread cloning inserts whole records).
    await memory.insertObservationalMemoryRecord(omRecord('b-first', 'thread-b', 0, t0 + 10_000));
    await memory.insertObservationalMemoryRecord(omRecord('b-second', 'thread-b', 0, t0 + 20_000));
    // The resource: its own OM (thread id null), two generations.
    await memory.insertObservationalMemoryRecord(omRecord('r-0', null, 0, t0 + 30_000));
    await memory.insertObservationalMemoryRecord(omRecord('r-1', null, 1, t0 + 40_000));
    const keys = ['thread-a', 'thread-b', null];
    const sourceIds = await Promise.all(keys.map((k) => omIds(memory, k)));
    expect(sourceIds.map((ids) => ids.length)).toEqual([3, 2, 2]);

    const store = await backend.open(backend.target());
    try {
      const target = { memory: new CheckpointMemoryStorage(store) };
      const source = { memory };
      const dry = await migrateMastra(source, target);
      expect(dry).toMatchObject({ dryRun: true, threads: 2, messages: 0, resources: 0, observationalMemory: 7, present: 0 });
      expect((await store.verify()).checked).toBe(0);

      // Killed at the second record of thread-a's OM: the first is in, the rest is not.
      let inserts = 0;
      class Killed extends CheckpointMemoryStorage {
        override async insertObservationalMemoryRecord(record: ObservationalMemoryRecord): Promise<void> {
          if (++inserts === 2) throw new Error('killed');
          return super.insertObservationalMemoryRecord(record);
        }
      }
      await expect(migrateMastra(source, { memory: new Killed(store) }, { apply: true })).rejects.toThrow('killed');
      expect(await omIds(target.memory, 'thread-a')).toEqual([sourceIds[0]?.[2]]);
      const resumed = await migrateMastra(source, target, { apply: true });
      expect(resumed).toMatchObject({ threads: 1, observationalMemory: 6, present: 2, differences: [], verified: { threads: 2, runs: 0, observationalMemory: 7 } });
      // Listed as the source lists them: newest generation first, records of one generation oldest first.
      expect(await Promise.all(keys.map((k) => omIds(target.memory, k)))).toEqual(sourceIds);
      const [mine, theirs] = [await target.memory.getObservationalMemory('thread-a', 'user-1'), await memory.getObservationalMemory('thread-a', 'user-1')];
      expect(mine).toMatchObject({ id: theirs?.id, generationCount: 2, pendingMessageTokens: 55, activeObservations: 'reflection 2', updatedAt: theirs?.updatedAt });
      expect(mine?.bufferedObservationChunks?.[0]?.lastObservedAt).toEqual(new Date(t0 + 6000));
      expect((await target.memory.getObservationalMemory(null, 'user-1'))?.bufferedObservationChunks?.[0]).toEqual({ ...omRecord('r-1', null, 1, t0 + 40_000).bufferedObservationChunks?.[0] });

      const again = await migrateMastra(source, target, { apply: true });
      expect(again).toMatchObject({ threads: 0, observationalMemory: 0, present: 9, differences: [] });

      // A record changed on one side and one the source lacks are both differences.
      const [newest] = sourceIds[1] as string[];
      await target.memory.setPendingMessageTokens(newest as string, 999);
      await target.memory.insertObservationalMemoryRecord(omRecord('only-here', null, 3, t0 + 50_000));
      const checked = await migrateMastra(source, target, { verify: true });
      expect(checked.differences?.map((d) => [d.what, d.id])).toEqual([
        ['observational-memory', `thread:thread-b/${newest}`],
        ['observational-memory', 'resource:user-1/only-here'],
      ]);
      // A record on both sides shows the fields that differ.
      expect(checked.differences?.[0]).toMatchObject({ source: expect.stringMatching(/^\{"pendingMessageTokens":7,"updatedAt":\d+\}$/), target: expect.stringMatching(/^\{"pendingMessageTokens":999,"updatedAt":\d+\}$/) });
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('names a record whose generationCount this store cannot hold, in a dry run and before writing its OM', async () => {
    const libsql = new LibSQLStore({ id: `omgen-${backend.name}`, url: `file:${join(tmp, `omgen-${backend.name}.db`)}` });
    await libsql.init();
    const memory = (await libsql.getStore('memory')) as MemoryStorage;
    const t0 = Date.UTC(2026, 0, 1);
    await memory.saveThread({ thread: { id: 'thread-g', resourceId: 'user-1', title: 'g', metadata: {}, createdAt: new Date(t0), updatedAt: new Date(t0) } });
    const store = await backend.open(backend.target());
    try {
      const target = { memory: new CheckpointMemoryStorage(store) };
      for (const generation of [2.5, -1, 1e15]) {
        await memory.clearObservationalMemory('thread-g', 'user-1');
        await memory.insertObservationalMemoryRecord(omRecord('fine', 'thread-g', 0, t0));
        await memory.insertObservationalMemoryRecord(omRecord('odd', 'thread-g', generation, t0 + 1000));
        // @mastra/libsql keeps it as given.
        expect((await memory.getObservationalMemoryHistory('thread-g', 'user-1')).find((r) => r.id === 'odd')?.generationCount).toBe(generation);
        for (const apply of [false, true]) {
          const run = migrateMastra({ memory }, target, { apply });
          await expect(run).rejects.toThrow(CheckpointValidationError);
          await expect(run).rejects.toThrow(`observational memory record odd of thread:thread-g has generationCount ${generation}`);
        }
        expect(await omIds(target.memory, 'thread-g')).toEqual([]);
      }
      // Within the range, the same records copy.
      await memory.clearObservationalMemory('thread-g', 'user-1');
      await memory.insertObservationalMemoryRecord(omRecord('fine', 'thread-g', 0, t0));
      await memory.insertObservationalMemoryRecord(omRecord('odd', 'thread-g', 1e15 - 1, t0 + 1000));
      expect(await migrateMastra({ memory }, target, { apply: true })).toMatchObject({ observationalMemory: 2, differences: [] });
      expect(await omIds(target.memory, 'thread-g')).toEqual(['odd', 'fine']);
    } finally {
      await store.close();
    }
  });
});

/** One generated OM record: its key (thread-0, thread-1 or the resource), generation and a few fields. */
const generatedRecord = fc.record({ key: fc.constantFrom(0, 1, 2), generation: fc.integer({ min: 0, max: 3 }), chunk: fc.boolean(), pending: fc.nat(500) });
const generatedRuns = Number(process.env.SC_SOAK === '1' ? (process.env.SC_SOAK_RUNS ?? 200) : 12);

describe.skipIf(!RUNTIME_OK).each(list)('migrateMastra of generated observational memory into $name', (backend) => {
  it.skipIf(!backend.available)('any records (ties of a generation too), killed at any insert: the resumed copy lists every key as the source does (fast-check)', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(generatedRecord, { minLength: 1, maxLength: 9 }), fc.nat(10), async (records, killAt) => {
        const libsql = new LibSQLStore({ id: `gen-${backend.name}-${n}`, url: `file:${join(tmp, `gen-${backend.name}-${n++}.db`)}` });
        await libsql.init();
        const memory = (await libsql.getStore('memory')) as MemoryStorage;
        const t0 = Date.UTC(2026, 0, 1);
        for (const t of [0, 1]) await memory.saveThread({ thread: { id: `thread-${t}`, resourceId: 'user-1', title: `t${t}`, metadata: {}, createdAt: new Date(t0), updatedAt: new Date(t0) } });
        const keys = ['thread-0', 'thread-1', null];
        for (const [i, r] of records.entries()) {
          const record = { ...omRecord(`rec-${i}`, keys[r.key] ?? null, r.generation, t0 + i * 1000), pendingMessageTokens: r.pending };
          await memory.insertObservationalMemoryRecord(r.chunk ? record : { ...record, bufferedObservationChunks: undefined });
        }
        const store = await backend.open(backend.target());
        try {
          let inserts = 0;
          class Killed extends CheckpointMemoryStorage {
            override async insertObservationalMemoryRecord(record: ObservationalMemoryRecord): Promise<void> {
              if (inserts++ === killAt) throw new Error('killed');
              return super.insertObservationalMemoryRecord(record);
            }
          }
          const first = await migrateMastra({ memory }, { memory: new Killed(store) }, { apply: true }).catch((error: Error) => error);
          if (killAt < records.length) expect(first).toMatchObject({ message: 'killed' });
          const target = new CheckpointMemoryStorage(store);
          const resumed = await migrateMastra({ memory }, { memory: target }, { apply: true });
          expect(resumed).toMatchObject({ observationalMemory: records.length - Math.min(killAt, records.length), differences: [], verified: { observationalMemory: records.length } });
          for (const k of keys) expect(await omIds(target, k)).toEqual(await omIds(memory, k));
          expect(await migrateMastra({ memory }, { memory: target }, { apply: true })).toMatchObject({ observationalMemory: 0, present: 2 + records.length });
        } finally {
          await store.close();
        }
      }),
      { numRuns: generatedRuns, seed: Number(process.env.SC_ORACLE_SEED ?? 38), endOnFailure: true },
    );
  }, 30_000 + generatedRuns * 2_000);
});
