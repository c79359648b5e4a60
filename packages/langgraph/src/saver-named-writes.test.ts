import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { MemorySaver, type Checkpoint, type PendingWrite } from '@langchain/langgraph-checkpoint';
import { CheckpointIntegrityError, type CheckpointStore } from '@session-checkpoint/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { checkpointRef, writeRef, writePartRef } from './format/refs.js';
import { keptRowPart, type CheckpointPayload } from './format/payloads.js';
import { cfg, checkpointWith, listThread, meta } from './test-support/checkpoints.js';
import { firstDifference, normalTuple, oracleBackends, oracleParameters } from './test-support/oracle.js';

/*
 * List pieces that name pending writes instead of repeating their items (row format 4,
 * docs/decisions/0036). Generated sequences of steps (pending writes on a checkpoint, then the
 * child whose list appends their items, exactly or with items changed, added or left out), forks,
 * later putWrites that replace a named row (new writes, special writes), prunes and restarts run
 * on our saver and MemorySaver; every getTuple and list answer, also through a fresh saver, must
 * agree. Then the fail-closed cases: a named row deleted, or replaced without its kept copy.
 */

const list = oracleBackends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

type Item = { kind: 'message' | 'json' | 'list'; text: string };
type Step =
  | { op: 'step'; from: number; tasks: { items: Item[] }[]; shape: 'exact' | 'extra' | 'edited' | 'dropped' | 'reordered' }
  | { op: 'merge'; at: number; task: number; special: boolean }
  | { op: 'prune'; keep: number }
  | { op: 'restart' };

const itemArb: fc.Arbitrary<Item> = fc.record({ kind: fc.constantFrom('message', 'json', 'list'), text: fc.string({ maxLength: 12 }) });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('step' as const),
      from: fc.nat(),
      tasks: fc.array(fc.record({ items: fc.array(itemArb, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 3 }),
      shape: fc.constantFrom('exact', 'exact', 'extra', 'edited', 'dropped', 'reordered'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('merge' as const), at: fc.nat(), task: fc.nat(2), special: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('prune' as const), keep: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('restart' as const) }) },
);

let runs = 0;
/** How often the generated runs took each path, so that the property is known to reach them. */
const reached = { named: 0, merged: 0, kept: 0 };

/** Runs `steps` on our saver and MemorySaver, comparing every checkpoint after each step. */
async function runSteps(store: CheckpointStore, steps: Step[]): Promise<void> {
  const thread = `named-${runs++}`;
  const memory = new MemorySaver();
  let ours = new SessionCheckpointSaver(store);
  const made: { id: string; list: unknown[]; version: number; tasks: string[] }[] = [];
  let n = 0;
  const value = (item: Item): unknown => {
    const id = `m${n++}`;
    if (item.kind === 'message') return n % 2 === 0 ? new AIMessage({ id, content: item.text }) : new HumanMessage({ id, content: item.text });
    if (item.kind === 'json') return { id, text: item.text };
    return [new AIMessage({ id, content: item.text }), { id: `${id}b`, text: item.text }];
  };
  const put = async (parent: string | undefined, messages: unknown[], version: number): Promise<string> => {
    const c: Checkpoint = checkpointWith({ messages }, version);
    await memory.put(cfg(thread, parent), c, meta(version));
    await ours.put(cfg(thread, parent), c, meta(version), { messages: version });
    return c.id;
  };
  const writes = async (id: string, task: string, w: PendingWrite[]) => {
    await memory.putWrites(cfg(thread, id), w, task);
    await ours.putWrites(cfg(thread, id), w, task);
  };
  const root = [new HumanMessage({ id: 'root', content: 'hello' })];
  made.push({ id: await put(undefined, root, 1), list: root, version: 1, tasks: [] });
  for (const step of steps) {
    if (step.op === 'step') {
      const parent = made[step.from % made.length] as (typeof made)[number];
      const appended: unknown[] = [];
      for (const [t, task] of step.tasks.entries()) {
        const taskId = `task-${made.length}-${t}`;
        const values = task.items.map(value);
        await writes(parent.id, taskId, values.map((v): PendingWrite => ['messages', v]));
        parent.tasks.push(taskId);
        for (const v of values) appended.push(...(Array.isArray(v) ? v : [v]));
      }
      // The step's list: the writes' items as written, or with one added, edited, left out, or reordered.
      if (step.shape === 'extra') appended.splice(appended.length >> 1, 0, new AIMessage({ id: `x${n++}`, content: 'not a write' }));
      if (step.shape === 'edited' && appended[0] instanceof AIMessage) appended[0] = new AIMessage({ id: appended[0].id, content: 'edited after the write' });
      else if (step.shape === 'edited' || step.shape === 'dropped') appended.pop();
      if (step.shape === 'reordered') appended.reverse();
      const messages = [...parent.list, ...appended];
      const version = parent.version + 1;
      made.push({ id: await put(parent.id, messages, version), list: messages, version, tasks: [] });
    } else if (step.op === 'merge') {
      const at = made[step.at % made.length] as (typeof made)[number];
      const task = at.tasks[step.task % Math.max(at.tasks.length, 1)];
      if (task === undefined) continue;
      // A later putWrites to a named row: a new regular write, or a special one.
      const w: PendingWrite[] = step.special ? [['__error__', { message: `failed ${n++}` }]] : [['messages', new AIMessage({ id: `late${n++}`, content: 'late' })], ['other', n]];
      await writes(at.id, task, w);
      reached.merged++;
    } else if (step.op === 'prune') {
      await ours.prune({ threadId: thread, keepLatest: step.keep, apply: true });
    } else {
      ours = new SessionCheckpointSaver(store);
    }
    // Every checkpoint ours still has equals MemorySaver's, through this saver and a fresh one.
    for (const saver of [ours, new SessionCheckpointSaver(store)]) {
      for (const t of await listThread(saver, thread)) {
        const d = firstDifference(normalTuple(t), normalTuple(await memory.getTuple(t.config)));
        if (d !== undefined) throw new Error(`checkpoint ${String(t.config.configurable?.checkpoint_id)}: ${d}`);
        const again = firstDifference(normalTuple(await saver.getTuple(t.config)), normalTuple(await memory.getTuple(t.config)));
        if (again !== undefined) throw new Error(`getTuple ${String(t.config.configurable?.checkpoint_id)}: ${again}`);
      }
    }
  }
  // What the rows hold: pieces that name writes, kept copies of replaced rows.
  for (const row of await store.listBySourceRefPrefix({ namespace: ours.namespace, prefix: `lg/${thread}/`, kind: 'langgraph.checkpoint', limit: 1000 })) {
    if ((row.payload as unknown as CheckpointPayload).langgraph === 4) reached.named++;
  }
  const parts = await store.listBySourceRefPrefix({ namespace: ours.namespace, prefix: `lgp/${thread}/`, limit: 1000 });
  reached.kept += parts.filter((r) => r.name.startsWith('kept ')).length;
  await ours.deleteThread(thread);
}

describe.each(list)('list pieces naming pending writes on $name', (backend) => {
  let store: CheckpointStore;
  beforeAll(async () => {
    if (backend.available) store = await backend.open();
  });
  afterAll(async () => {
    if (backend.available) await store.close();
  });

  it.skipIf(!backend.available)("every answer equals MemorySaver's: named writes, forks, later putWrites, prunes, restarts", async () => {
    const before = { ...reached };
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), (steps) => runSteps(store, steps)),
      oracleParameters(backend.keyed ? 8 : 25),
    );
    // The runs reached what they are for.
    expect(reached.named - before.named).toBeGreaterThan(0);
    expect(reached.merged - before.merged).toBeGreaterThan(0);
    expect(reached.kept - before.kept).toBeGreaterThan(0);
  });

  /** A step on a fresh thread: c1, the answer written on it by task `agent`, then c2 whose piece names that write. */
  async function namedStep(thread: string) {
    const saver = new SessionCheckpointSaver(store);
    const first = [new HumanMessage({ id: 'u0', content: 'question' })];
    const c1 = checkpointWith({ messages: first }, 1);
    await saver.put(cfg(thread), c1, meta(1), { messages: 1 });
    const answer = new AIMessage({ id: 'a0', content: 'answer '.repeat(200) });
    await saver.putWrites(cfg(thread, c1.id), [['messages', answer]], 'agent');
    const c2 = checkpointWith({ messages: [...first, answer] }, 2);
    await saver.put(cfg(thread, c1.id), c2, meta(2), { messages: 2 });
    const row = await store.findBySourceRef(saver.namespace, checkpointRef(thread, '', c2.id));
    const p = row?.payload as unknown as CheckpointPayload;
    const read = async () => ((await new SessionCheckpointSaver(store).getTuple(cfg(thread, c2.id)))?.checkpoint.channel_values.messages as AIMessage[]).map((m) => m.content);
    const copyRef = () => writePartRef(thread, '', c1.id, 'agent', keptRowPart((p.lists?.messages?.w?.[0] as { sha: string }).sha));
    return { saver, c1, c2, row, p, read, copyRef, expected: ['question', answer.content] };
  }

  it.skipIf(!backend.available)('a piece names the writes of its step; a replaced row is read from its kept copy, which retention removes with its checkpoint', async () => {
    const thread = `named-closed-${backend.name}`;
    const { saver, c1, c2, row, p, read, copyRef, expected } = await namedStep(thread);
    expect(p.langgraph).toBe(4);
    expect(p.lists?.messages?.w).toEqual([{ r: 'agent', i: 0, sha: expect.any(String) }]);
    expect(row?.payloadJson).not.toContain('answer answer');
    expect(await read()).toEqual(expected);

    // A later putWrites replaces the named row: the copy it keeps serves the piece.
    await saver.putWrites(cfg(thread, c1.id), [['__error__', { message: 'late' }]], 'agent');
    expect(await read()).toEqual(expected);
    expect(await store.findBySourceRef(saver.namespace, copyRef())).toBeDefined();
    // Retention keeps the copy while c2 is kept; when c1 and c2 go, the copy goes with them.
    const c3 = checkpointWith({ messages: [] }, 3);
    await saver.put(cfg(thread, c2.id), c3, meta(3), { messages: 3 });
    const report = await saver.prune({ threadId: thread, keepLatest: 1, apply: true });
    expect(report.checkpoints.map((c) => c.checkpointId).sort()).toEqual([c1.id, c2.id].sort());
    expect(await store.findBySourceRef(saver.namespace, copyRef())).toBeUndefined();
    await saver.deleteThread(thread);
  });

  it.skipIf(!backend.available)('retention removes the kept copies of replaced rows that no piece names, with their checkpoints', async () => {
    const thread = `named-unnamed-${backend.name}`;
    // snapshotRatio 0: no list pieces, so no piece names any write; each step's regular write is
    // then replaced by an interrupt on the same task, which keeps a copy of it.
    const saver = new SessionCheckpointSaver(store, { snapshotRatio: 0 });
    let parent: string | undefined;
    const ids: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const c = checkpointWith({ messages: [new HumanMessage({ id: `u${i}`, content: `q${i}` })] }, i);
      await saver.put(cfg(thread, parent), c, meta(i), { messages: i });
      await saver.putWrites(cfg(thread, c.id), [['messages', new AIMessage({ id: `a${i}`, content: `a${i}` })]], 'agent');
      await saver.putWrites(cfg(thread, c.id), [['__interrupt__', [{ value: 'stop' }]]], 'agent');
      ids.push(c.id);
      parent = c.id;
    }
    const partsOf = async (id: string) => (await store.listBySourceRefPrefix({ namespace: saver.namespace, prefix: `lgp/${checkpointRef(thread, '', id).slice(3)}/`, limit: 100 })).length;
    for (const id of ids) expect(await partsOf(id)).toBeGreaterThan(0);
    const report = await saver.prune({ threadId: thread, keepLatest: 1, apply: true });
    const pruned = report.checkpoints.map((c) => c.checkpointId);
    expect(pruned.length).toBeGreaterThan(0);
    for (const id of pruned) expect(await partsOf(id)).toBe(0);
    for (const id of ids.filter((id) => !pruned.includes(id))) expect(await partsOf(id)).toBeGreaterThan(0);
    await saver.deleteThread(thread);
  });

  it.skipIf(!backend.available)('without the kept copy of a replaced row, a piece naming it fails closed', async () => {
    const thread = `named-copy-${backend.name}`;
    const { saver, c1, read, copyRef, expected } = await namedStep(thread);
    await saver.putWrites(cfg(thread, c1.id), [['__error__', { message: 'late' }]], 'agent');
    expect(await read()).toEqual(expected);
    const copy = await store.findBySourceRef(saver.namespace, copyRef());
    await store.delete(copy?.id as number, { namespace: saver.namespace, apply: true, force: true });
    await expect(read()).rejects.toThrow(CheckpointIntegrityError);
    await expect(read()).rejects.toThrow(/pending writes of task agent .*SHA-256 differs/);
    // The named row gone altogether: fail closed too.
    const w = await store.findBySourceRef(saver.namespace, writeRef(thread, '', c1.id, 'agent'));
    await store.delete(w?.id as number, { namespace: saver.namespace, apply: true, force: true });
    await expect(read()).rejects.toThrow(/pending writes of task agent .*missing/);
    await saver.deleteThread(thread);
  });

  it.skipIf(!backend.available)('a named row deleted before the put: the piece holds its items', async () => {
    const saver = new SessionCheckpointSaver(store);
    const thread = `named-gone-${backend.name}`;
    const c1 = checkpointWith({ messages: [] }, 1);
    await saver.put(cfg(thread), c1, meta(1), { messages: 1 });
    const answer = new AIMessage({ id: 'a0', content: 'kept' });
    await saver.putWrites(cfg(thread, c1.id), [['messages', answer]], 'agent');
    // Another process deletes the row; this saver still remembers it.
    const w = await store.findBySourceRef(saver.namespace, writeRef(thread, '', c1.id, 'agent'));
    await store.delete(w?.id as number, { namespace: saver.namespace, apply: true, force: true });
    const c2 = checkpointWith({ messages: [answer] }, 2);
    await saver.put(cfg(thread, c1.id), c2, meta(2), { messages: 2 });
    const row = await store.findBySourceRef(saver.namespace, checkpointRef(thread, '', c2.id));
    expect((row?.payload as unknown as CheckpointPayload).lists?.messages?.j).toHaveLength(1);
    const got = await new SessionCheckpointSaver(store).getTuple(cfg(thread, c2.id));
    expect((got?.checkpoint.channel_values.messages as AIMessage[]).map((m) => m.content)).toEqual(['kept']);
    await saver.deleteThread(thread);
  });
});
