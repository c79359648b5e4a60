import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { CheckpointStore, MemoryAdapter, type Checkpoint as StoredRow } from '@session-checkpoint/core';
import { describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from '../index.js';
import { keptRowPart, type CheckpointPayload } from '../format/payloads.js';
import { checkpointRef, writePartRef, writeRef } from '../format/refs.js';
import { cfg, checkpointWith, meta } from '../test-support/checkpoints.js';
import { resolveSegments } from './named-writes.js';

/*
 * A piece naming several writes of one task names one pending-writes row several times; when a
 * later putWrites replaced that row, its kept copy is looked up and hashed once for the piece,
 * not once per write (rows written by the real saver, read by resolveSegments as the rebuild does).
 */

describe('resolveSegments', () => {
  it('reads and hashes the kept copy of a replaced row once for all the writes a piece names in it', async () => {
    const store = new CheckpointStore(new MemoryAdapter());
    const saver = new SessionCheckpointSaver(store);
    const thread = 't';
    const first = [new HumanMessage({ id: 'u0', content: 'question' })];
    const c1 = checkpointWith({ messages: first }, 1);
    await saver.put(cfg(thread), c1, meta(1), { messages: 1 });
    const answers = [new AIMessage({ id: 'a0', content: 'one' }), new AIMessage({ id: 'a1', content: 'two' }), new AIMessage({ id: 'a2', content: 'three' })];
    await saver.putWrites(
      cfg(thread, c1.id),
      answers.map((m) => ['messages', m]),
      'agent',
    );
    const c2 = checkpointWith({ messages: [...first, ...answers] }, 2);
    await saver.put(cfg(thread, c1.id), c2, meta(2), { messages: 2 });
    // A later putWrites replaces the row the piece names: its copy is kept.
    await saver.putWrites(cfg(thread, c1.id), [['__error__', { message: 'late' }]], 'agent');

    const p = (await store.findBySourceRef(saver.namespace, checkpointRef(thread, '', c2.id)))?.payload as unknown as CheckpointPayload;
    const piece = p.lists?.messages;
    expect(piece?.w?.map((s) => ('r' in s ? `${s.r}/${s.i}` : 'inline'))).toEqual(['agent/0', 'agent/1', 'agent/2']);
    const sha = (piece?.w?.[0] as { sha: string }).sha;
    const refs = [writeRef(thread, '', c1.id, 'agent'), writePartRef(thread, '', c1.id, 'agent', keptRowPart(sha))];
    const rows = new Map<string, StoredRow>();
    for (const ref of refs) rows.set(ref, (await store.findBySourceRef(saver.namespace, ref)) as StoredRow);
    expect(rows.get(refs[0]!)?.payloadSha256).not.toBe(sha);

    const asked: string[] = [];
    const items = resolveSegments(
      p,
      piece!,
      (ref) => {
        asked.push(ref);
        return rows.get(ref);
      },
      (reason) => new Error(reason),
      'messages',
    );
    expect((items as { kwargs: { content: string } }[]).map((m) => m.kwargs.content)).toEqual(['one', 'two', 'three']);
    // The row and its kept copy, once each (the old code asked for both, and hashed the copy, per write).
    expect(asked).toEqual(refs);
  });
});
