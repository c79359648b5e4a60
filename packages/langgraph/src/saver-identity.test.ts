import { CheckpointIntegrityError, type Checkpoint as StoredRow, type CheckpointStore } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { partPayload } from './format/payloads.js';
import { checkpointRef, partRef, parseSourceRef, refNames, writeRef } from './format/refs.js';
import { backends } from './test-support/backends.js';
import { cfg, checkpointWith, listThread, meta } from './test-support/checkpoints.js';

/*
 * A row is the checkpoint, thread, namespace and piece that its kind and source ref say. Rows
 * inserted through the store's own API (so they verify) under a ref their payload does not name
 * fail closed with CheckpointIntegrityError naming the row, from getTuple and list alike, instead
 * of being read as what their payload claims (a checkpoint listed twice, forged items, another
 * thread's checkpoint).
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

const NS = 'langgraph';
const names = (id: number) => (error: unknown) => error instanceof CheckpointIntegrityError && error.ids.includes(id);

async function drain(saver: SessionCheckpointSaver, config: object): Promise<unknown[]> {
  const out = [];
  for await (const t of saver.list(config)) out.push(t);
  return out;
}

/** A row inserted through the store's normal API: it verifies, only its ref or session lies. */
function copy(store: CheckpointStore, row: StoredRow, sourceRef: string, sessionId = row.sessionId, payload: object = row.payload as object): Promise<StoredRow> {
  return store.create({ namespace: NS, sessionId, kind: row.kind, name: row.name, payload, sourceRef });
}

/** Thread `a`: two checkpoints (c1 holds the messages, c2 appends to them) and a write on c2. */
async function thread(saver: SessionCheckpointSaver, t = 'a') {
  const first = checkpointWith({ messages: ['hello'] });
  const c1 = await saver.put(cfg(t), first, meta(0), first.channel_versions);
  const second = checkpointWith({ messages: ['hello', 'world'] }, 2);
  const c2 = await saver.put(c1, second, meta(1), { messages: 2 });
  await saver.putWrites(c2, [['messages', 'pending']], 'task-1');
  const rows = await saver.store.listBySourceRefPrefix({ namespace: NS, prefix: `lg/${t}/`, limit: 100 });
  const byId = (id: string) => rows.find((r) => r.sourceRef === checkpointRef(t, '', id)) as StoredRow;
  const write = rows.find((r) => r.kind === 'langgraph.writes') as StoredRow;
  return { c1: first.id, c2: second.id, row1: byId(first.id), row2: byId(second.id), write };
}

describe('parseSourceRef and refNames', () => {
  it('read back what the builders write, and nothing else', () => {
    const ref = writeRef('t/1', 'n~s', 'a/b', 'task%');
    expect(parseSourceRef(ref)).toEqual({ what: 'writes', thread: 't%2F1', ns: 'n%7Es', id: 'a.\u{10FFFF}2Fb', task: 'task%25' });
    expect(refNames(parseSourceRef(ref) as never, { thread_id: 't/1', checkpoint_ns: 'n~s', checkpoint_id: 'a/b', task_id: 'task%' })).toBe(true);
    expect(refNames(parseSourceRef(ref) as never, { thread_id: 't/1', checkpoint_ns: 'n~s', checkpoint_id: 'a/b', task_id: 'other' })).toBe(false);
    expect(refNames(parseSourceRef(ref) as never, { thread_id: 't', checkpoint_ns: 'n~s', checkpoint_id: 'a/b', task_id: 'task%' })).toBe(false);
    const long = 'x'.repeat(200);
    const hashed = parseSourceRef(checkpointRef(long, '', 'c1'));
    expect(hashed?.thread.startsWith('~')).toBe(true);
    expect(refNames(hashed as never, { thread_id: long, checkpoint_ns: '', checkpoint_id: 'c1' })).toBe(true);
    expect(refNames(hashed as never, { thread_id: `${long}y`, checkpoint_ns: '', checkpoint_id: 'c1' })).toBe(false);
    expect(parseSourceRef(partRef('t', 'ns', 'c1', 7))).toEqual({ what: 'part', thread: 't', ns: 'ns', id: 'c1', k: 7 });
    for (const bad of [null, 'lg/t', 'lg//ns/c', 'lg/t/ns/', 'lg/t/ns/c/task/more', 'lgp/t/ns/c/07', 'lgp/t/ns/c/x', 'lgl/t/', 'other/t/ns/c']) {
      expect(parseSourceRef(bad)).toBeUndefined();
    }
  });
});

describe.each(list)('row identity from the ref on $name', (backend) => {
  it.skipIf(!backend.available)('a checkpoint row copied under another id of its thread fails closed instead of listing twice', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const { c1, row1 } = await thread(saver);
      expect(await listThread(saver, 'a')).toHaveLength(2);
      const forged = await copy(store, row1, checkpointRef('a', '', `${c1}-copy`));
      expect((await store.verify()).failures).toEqual([]);
      await expect(listThread(saver, 'a')).rejects.toSatisfy(names(forged.id));
      await expect(drain(saver, {})).rejects.toSatisfy(names(forged.id));
      await expect(saver.getTuple(cfg('a', `${c1}-copy`))).rejects.toSatisfy(names(forged.id));
      // The real checkpoints still read alone.
      expect((await saver.getTuple(cfg('a', c1)))?.checkpoint.channel_values).toEqual({ messages: ['hello'] });
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('a re-hashed copy with edited items fails closed in list, not listed as a second checkpoint', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const { c2, row2 } = await thread(saver);
      const edited = JSON.parse(JSON.stringify(row2.payload).replace('"world"', '"forged"')) as object;
      expect(JSON.stringify(edited)).toContain('forged');
      const forged = await copy(store, row2, checkpointRef('a', '', `${c2}-z`), row2.sessionId, edited);
      await expect(listThread(saver, 'a')).rejects.toSatisfy(names(forged.id));
      await expect(saver.getTuple(cfg('a', `${c2}-z`))).rejects.toSatisfy(names(forged.id));
      // Newest first, the copy is the latest: getTuple without an id fails closed too.
      await expect(saver.getTuple(cfg('a'))).rejects.toSatisfy(names(forged.id));
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)("a checkpoint or a write moved to another thread's ref is not that thread's", async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const { c2, row1, write } = await thread(saver);
      await thread(saver, 'b');
      // Thread a's first checkpoint under thread b's ref, in b's session.
      const moved = await copy(store, row1, checkpointRef('b', '', '0-moved'), 'b');
      await expect(listThread(saver, 'b')).rejects.toSatisfy(names(moved.id));
      await expect(saver.getTuple(cfg('b', '0-moved'))).rejects.toSatisfy(names(moved.id));
      await store.delete(moved.id, { namespace: NS, apply: true, force: true });
      expect(await listThread(saver, 'b')).toHaveLength(2);
      // Thread a's write, under a task of thread b's latest checkpoint.
      const latestB = (await saver.getTuple(cfg('b')))?.config.configurable?.checkpoint_id as string;
      const movedWrite = await copy(store, write, writeRef('b', '', latestB, 'task-x'), 'b');
      await expect(saver.getTuple(cfg('b'))).rejects.toSatisfy(names(movedWrite.id));
      await expect(listThread(saver, 'b')).rejects.toSatisfy(names(movedWrite.id));
      // Under a task of its own checkpoint, but another task id: still not that task's writes.
      const retasked = await copy(store, write, writeRef('a', '', c2, 'task-2'));
      await expect(saver.getTuple(cfg('a', c2))).rejects.toSatisfy(names(retasked.id));
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('a row whose session is not its thread fails closed (deleteThread would miss it)', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const { c1, row1 } = await thread(saver);
      await store.delete(row1.id, { namespace: NS, apply: true, force: true });
      const other = await copy(store, row1, row1.sourceRef as string, 'someone-else');
      await expect(saver.getTuple(cfg('a', c1))).rejects.toSatisfy(names(other.id));
      await expect(listThread(saver, 'a')).rejects.toSatisfy(names(other.id));
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)("a part row under another checkpoint's part ref fails closed", async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const big = checkpointWith({ messages: Array.from({ length: 200 }, (_, i) => ({ id: `m${i}`, content: 'x'.repeat(8000) })) });
      await saver.put(cfg('p'), big, meta(0), big.channel_versions);
      const [part] = (await store.listBySourceRefPrefix({ namespace: NS, prefix: 'lgp/p/', limit: 10 })).filter((r) => r.kind === 'langgraph.part');
      if (!part) throw new Error('no part row');
      expect(() => partPayload(part)).not.toThrow();
      const k = (part.payload as { k: number }).k;
      for (const ref of [partRef('q', '', big.id, k), partRef('p', '', big.id, k + 100000), writeRef('p', '', big.id, 'task')]) {
        const moved = await copy(store, part, ref, ref.includes('/q/') ? 'q' : 'p');
        expect(() => partPayload(moved)).toThrow(CheckpointIntegrityError);
        expect(() => partPayload(moved)).toThrow(new RegExp(`checkpoint ${moved.id} `));
      }
    } finally {
      await store.close();
    }
  });
});
