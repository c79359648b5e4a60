import Database from 'better-sqlite3';
import { isCheckpointIntegrityError } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointMemoryStorage } from './index.js';
import { recordOut } from './observational-memory.js';
import { mastraObservationalMemory, mastraObservationalMemoryVersion, OM_KINDS } from './rows/index.js';
import { backends, RUNTIME_OK } from './test-support/backends.js';

/*
 * What observational memory keeps in the store: every version of a record (each update a change
 * row, folded back into the record as it was), the current record verified on every read (an
 * altered row fails the read), and a clear that leaves nothing behind.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.skipIf(!RUNTIME_OK).each(list)('observational memory rows on $name', (backend) => {
  it.skipIf(!backend.available)('a swap given the chunks read before keeps a chunk buffered since (it dropped it before)', async () => {
    const target = backend.target();
    const store = await backend.open(target);
    try {
      const memory = new CheckpointMemoryStorage(store);
      const record = await memory.initializeObservationalMemory({ threadId: 'thread-race', resourceId: 'user-1', scope: 'thread', config: {} });
      const chunk = (cycleId: string) => ({ cycleId, observations: `- ${cycleId}`, tokenCount: 5, messageIds: [`m-${cycleId}`], messageTokens: 300, lastObservedAt: new Date(Date.UTC(2026, 0, 3)) });
      await memory.updateBufferedObservations({ id: record.id, chunk: chunk('c1') });
      const fresh = (await memory.getObservationalMemory('thread-race', 'user-1'))!.bufferedObservationChunks!;
      // Buffered after the caller's read (async buffering, or another process).
      await memory.updateBufferedObservations({ id: record.id, chunk: chunk('c2') });
      const swapped = await memory.swapBufferedToActive({ id: record.id, activationRatio: 1, messageTokensThreshold: 1000, currentPendingTokens: 600, bufferedChunks: fresh });
      expect(swapped.activatedCycleIds).toEqual(['c1']);
      const after = await memory.getObservationalMemory('thread-race', 'user-1');
      expect(after?.bufferedObservationChunks?.map((c) => c.cycleId)).toEqual(['c2']);
      expect(after?.activeObservations).toContain('- c1');
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('keeps every version of a record, the newest as the current record', async () => {
    const target = backend.target();
    const store = await backend.open(target);
    try {
      const memory = new CheckpointMemoryStorage(store);
      expect(memory.supportsObservationalMemory).toBe(true);
      const first = await memory.initializeObservationalMemory({ threadId: 'thread-1', resourceId: 'user-1', scope: 'thread', config: { observation: { messageTokens: 1000 } } });
      const seen = [await memory.getObservationalMemory('thread-1', 'user-1')];
      await memory.setObservingFlag(first.id, true);
      seen.push(await memory.getObservationalMemory('thread-1', 'user-1'));
      await memory.updateActiveObservations({ id: first.id, observations: '- user is Ada\n- likes tea', tokenCount: 12, lastObservedAt: new Date(Date.UTC(2026, 0, 2)), observedMessageIds: ['m1', 'm2'] });
      seen.push(await memory.getObservationalMemory('thread-1', 'user-1'));
      await memory.updateBufferedObservations({ id: first.id, chunk: { cycleId: 'c1', observations: '- asked for the bill', tokenCount: 5, messageIds: ['m3'], messageTokens: 300, lastObservedAt: new Date(Date.UTC(2026, 0, 3)) } });
      seen.push(await memory.getObservationalMemory('thread-1', 'user-1'));
      await memory.setObservingFlag(first.id, false);
      seen.push(await memory.getObservationalMemory('thread-1', 'user-1'));
      await memory.updateBufferedReflection({ id: first.id, reflection: '- Ada, tea', tokenCount: 4, inputTokenCount: 12, reflectedObservationLineCount: 2 });
      seen.push(await memory.getObservationalMemory('thread-1', 'user-1'));
      const second = await memory.swapBufferedReflectionToActive({ currentRecord: seen.at(-1)!, tokenCount: 4 });

      // The current record is the new generation; the first one is history, its reflection cleared.
      expect(await memory.getObservationalMemory('thread-1', 'user-1')).toEqual(second);
      const history = await memory.getObservationalMemoryHistory('thread-1', 'user-1');
      expect(history.map((r) => [r.id, r.generationCount])).toEqual([[second.id, 1], [first.id, 0]]);
      expect(history[1]?.bufferedReflection).toBeUndefined();
      expect(history[1]?.bufferedObservationChunks?.[0]?.lastObservedAt).toEqual(new Date(Date.UTC(2026, 0, 3)));
      expect(history[1]?.lastObservedAt).toEqual(new Date(Date.UTC(2026, 0, 2)));

      // Every version of the first record, folded from its change rows, is what a read gave then.
      const records = await mastraObservationalMemory(store, { threadId: 'thread-1', resourceId: 'user-1' });
      expect(records.map((r) => [r.record_id, r.generation, r.versions])).toEqual([[second.id, 1, 1], [first.id, 0, 7]]);
      for (const [i, read] of seen.entries()) {
        const version = await mastraObservationalMemoryVersion(store, { recordId: first.id, version: i + 1 });
        expect(recordOut(version.record), `version ${i + 1}`).toEqual(read);
      }
      const newest = await mastraObservationalMemoryVersion(store, { recordId: first.id });
      expect(newest).toMatchObject({ version: 7, op: 'swapBufferedReflectionToActive' });
      expect(recordOut(newest.record)).toEqual(history[1]);
      expect((await mastraObservationalMemoryVersion(store, { recordId: first.id, version: 2 })).op).toBe('set isObserving');
      await expect(mastraObservationalMemoryVersion(store, { recordId: first.id, version: 8 })).rejects.toThrow(/no version 8/);

      // deleteThread leaves OM alone, as Mastra's stores do (Mastra's Memory clears it itself).
      await memory.deleteThread({ threadId: 'thread-1' });
      expect((await memory.getObservationalMemory('thread-1', 'user-1'))?.id).toBe(second.id);
      // A resource's OM is its own key.
      expect(await memory.getObservationalMemory(null, 'user-1')).toBeNull();

      expect((await store.verify()).failures).toEqual([]);
      await memory.clearObservationalMemory('thread-1', 'user-1');
      expect(await memory.getObservationalMemoryHistory('thread-1', 'user-1')).toEqual([]);
      const left = (await store.list({ namespace: 'mastra', limit: 1000 })).filter((r) => (Object.values(OM_KINDS) as string[]).includes(r.kind) || r.sourceRef?.startsWith('p/o'));
      expect(left).toEqual([]);
      await expect(memory.setObservingFlag(first.id, true)).rejects.toThrow(`Observational memory record not found: ${first.id}`);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('keeps a record larger than a row in part rows, and reads it back', async () => {
    const store = await backend.open(backend.target());
    try {
      const memory = new CheckpointMemoryStorage(store);
      const record = await memory.initializeObservationalMemory({ threadId: null, resourceId: 'user-2', scope: 'resource', config: {} });
      const observations = Array.from({ length: 4000 }, (_, i) => `- observation ${i} ${'é'.repeat(200)}`).join('\n');
      await memory.updateActiveObservations({ id: record.id, observations, tokenCount: 90_000, lastObservedAt: new Date(Date.UTC(2026, 0, 2)) });
      expect((await memory.getObservationalMemory(null, 'user-2'))?.activeObservations).toBe(observations);
      expect((await store.list({ namespace: 'mastra', limit: 1000 })).some((r) => r.sourceRef?.startsWith('p/o/'))).toBe(true);
      expect((await mastraObservationalMemoryVersion(store, { recordId: record.id })).record.activeObservations).toBe(observations);
      await memory.clearObservationalMemory(null, 'user-2');
      expect(await store.list({ namespace: 'mastra', limit: 10 })).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(!RUNTIME_OK)('observational memory on SQLite, altered', () => {
  it('fails the read of a record whose row was altered', async () => {
    const [sqlite] = backends().filter((b) => b.name === 'sqlite');
    if (!sqlite) throw new Error('no sqlite backend');
    const target = sqlite.target() as string;
    try {
      let store = await sqlite.open(target);
      const memory = new CheckpointMemoryStorage(store);
      const record = await memory.initializeObservationalMemory({ threadId: 'thread-1', resourceId: 'user-1', scope: 'thread', config: {} });
      await memory.updateActiveObservations({ id: record.id, observations: '- user is Ada', tokenCount: 3, lastObservedAt: new Date(Date.UTC(2026, 0, 2)) });
      const [row] = (await store.list({ namespace: 'mastra', limit: 100 })).filter((r) => r.kind === OM_KINDS.record);
      await store.close();
      const db = new Database(target.slice('sqlite:'.length));
      try {
        expect(db.prepare('UPDATE checkpoints SET payload_json = replace(payload_json, ?, ?) WHERE id = ?').run('user is Ada', 'user is Bob', row?.id).changes).toBe(1);
      } finally {
        db.close();
      }
      store = await sqlite.open(target);
      try {
        const reopened = new CheckpointMemoryStorage(store);
        const failed = await reopened.getObservationalMemory('thread-1', 'user-1').then(() => undefined, (e: unknown) => e);
        expect(isCheckpointIntegrityError(failed)).toBe(true);
        // A write through the altered record fails too, and changes nothing.
        expect(isCheckpointIntegrityError(await reopened.setPendingMessageTokens(record.id, 5).then(() => undefined, (e: unknown) => e))).toBe(true);
      } finally {
        await store.close();
      }
    } finally {
      await sqlite.cleanup();
    }
  });
});
