import type { ChannelVersions } from '@langchain/langgraph-checkpoint';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { PART_OVERHEAD } from './format/parts.js';
import { CHECKPOINT_KIND, isWriteSegment, type CheckpointPayload, type WritePayload } from './format/payloads.js';
import { checkpointRef, writeRef } from './format/refs.js';
import { capturePut } from './write/capture.js';
import { planPut, type KnownList } from './write/plan.js';
import { writeCheckpoint } from './write/rows.js';
import type { TaskRow } from './write/write-refs.js';
import { cfg, checkpointWith, meta } from './test-support/checkpoints.js';
import { oracleBackends } from './test-support/oracle.js';

/*
 * A put reads this saver's task rows once per channel (write/plan.ts), and a putWrites may land
 * between two channels: then two list pieces name one pending-writes row with different SHA-256s.
 * The insert can check one SHA-256 per row, so the row written must name only that one (the other
 * piece holds its items). Here the second channel sees the row under another SHA-256 than the
 * first, as after a putWrites between them, through the real planPut, writeCheckpoint and a read
 * by a fresh saver. The old plan held the second piece's items only inside writeLinks, after the
 * payload was made: the row went in naming the SHA-256 nobody checked, and every read of it failed.
 */

const list = oracleBackends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

describe.each(list)('two pieces naming one task row differently on $name', (backend) => {
  it.skipIf(!backend.available)('the row names one SHA-256 per pending-writes row, the one checked; a fresh saver reads it', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const thread = 'named-race';
      const c1 = checkpointWith({ a: ['a0'], b: ['b0'] }, 1);
      await saver.put(cfg(thread), c1, meta(1), { a: 1, b: 1 });
      await saver.putWrites(cfg(thread, c1.id), [['a', 'x'], ['b', 'y']], 'agent');
      const parentRow = await store.findBySourceRef(saver.namespace, checkpointRef(thread, '', c1.id));
      const taskRow = await store.findBySourceRef(saver.namespace, writeRef(thread, '', c1.id, 'agent'));
      const writes = (taskRow?.payload as unknown as WritePayload).writes;
      const real: TaskRow = { sha: taskRow!.payloadSha256, writes, bytes: JSON.stringify(taskRow!.payload).length };
      // As a putWrites landing after channel a was planned leaves it: the same task, another SHA-256.
      const later: TaskRow = { ...real, sha: 'f'.repeat(64) };
      let reads = 0;
      const taskRows = (from: string) => (from === c1.id ? new Map([['agent', reads++ === 0 ? real : later]]) : undefined);

      // The parent's lists as the saver keeps them (with its row's SHA-256), and the child appending the writes.
      const kept = (items: string[]): KnownList => ({ stored: items, holder: c1.id, sha: parentRow!.payloadSha256, since: c1.id, d: 0, s: 10, c: 0 });
      const parentLists = new Map([
        ['a', kept(['a0'])],
        ['b', kept(['b0'])],
      ]);
      const c2 = checkpointWith({ a: ['a0', 'x'], b: ['b0', 'y'] }, 2);
      const newVersions: ChannelVersions = { a: 2, b: 2 };
      const values = await capturePut(saver.serde, c2, meta(2), newVersions, (ch) => parentLists.get(ch)?.stored, 0);
      const place = { thread, ns: '', id: c2.id, parentId: c1.id };
      const plan = await planPut(place, values, c2.channel_versions, newVersions, undefined, parentLists, { snapshotRatio: 4, maxChain: Infinity, taskRows, maxNamedRowBytes: store.limits.maxPayloadBytes - PART_OVERHEAD });
      expect(reads).toBe(2);
      const input = { namespace: saver.namespace, sessionId: thread, kind: CHECKPOINT_KIND, name: c2.id, payload: plan.payload() as unknown as Record<string, unknown>, sourceRef: checkpointRef(thread, '', c2.id) };
      // What the insert is asked to check is what the payload names.
      const links = plan.writeLinks();
      const pieces = Object.values((input.payload as unknown as CheckpointPayload).lists ?? {});
      for (const piece of pieces) for (const s of piece.w ?? []) if (isWriteSegment(s)) expect(links.get(writeRef(thread, '', piece.from, s.r))?.sha).toBe(s.sha);
      const written = await writeCheckpoint(store, saver.namespace, plan, input as never, values);
      expect(written.inserted).toBe(true);

      const row = (await store.findBySourceRef(saver.namespace, checkpointRef(thread, '', c2.id)))?.payload as unknown as CheckpointPayload;
      // Channel a names the write (the case is reached), channel b holds its item.
      expect(row.lists?.a?.w?.filter(isWriteSegment).map((s) => s.sha)).toEqual([real.sha]);
      expect(row.lists?.b?.w).toBeUndefined();
      expect(row.lists?.b?.j).toEqual(['y']);
      const got = await new SessionCheckpointSaver(store).getTuple(cfg(thread, c2.id));
      expect(got?.checkpoint.channel_values).toEqual({ a: ['a0', 'x'], b: ['b0', 'y'] });
    } finally {
      await store.close();
    }
  });
});
