import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { uuid6, type Checkpoint, type CheckpointTuple } from '@langchain/langgraph-checkpoint';
import { createHash } from 'node:crypto';
import { CheckpointStore, MemoryAdapter, type Checkpoint as StoredRow } from '@session-checkpoint/core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from '../saver.js';
import { backends } from '../test-support/backends.js';
import { cfg } from '../test-support/checkpoints.js';
import { isWriteSegment, type CheckpointPayload } from '../format/payloads.js';
import { checkpointRef } from '../format/refs.js';
import { ParsedPayloads } from './parsed-payloads.js';

/*
 * The parsed-payload memo (docs/decisions/0037) skips JSON.parse of rows read again and the text
 * of their messages for LangChain's `load`. Generated chats compare three readers after every step,
 * each read several times so that rows pass the memo's doorkeeper and are served from it: our
 * saver with the memo (the default), our saver without it (`parsedPayloadCache: 0`, the reference)
 * and MemorySaver. Between reads every value handed out is edited in place (messages, plain JSON
 * lists and objects, metadata, versions, pending writes, DeltaChannel history): a memo that handed
 * out its own objects, or kept a message's text after its object changed, answers the edit back.
 * Writes put on the parent before the put make list pieces that name them (docs/decisions/0036,
 * asserted to occur), read also by a second saver with a small memo, which keeps the writes' rows
 * and not always the rows the pieces extend: items shared through named writes alone.
 */

const list = backends().filter((b) => b.name !== 'postgres');
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

/** A step of a generated chat. */
interface Step {
  /** Messages appended (0 to 3), each of `size` characters. */
  add: number;
  size: number;
  /** Edit a message already in the list in place, by position (modulo its length). */
  editAt: number | null;
  /**
   * The task writes its messages as pending writes too: `after` the put, on the new checkpoint, or
   * `before` it, on the parent (as LangGraph does: the child's list pieces then name those writes,
   * docs/decisions/0036, so reads take the items from shared pending-writes rows).
   */
  writes: 'none' | 'after' | 'before';
  /**
   * With `before`: a second saver (a reader that wrote nothing, with a small memo) reads the parent
   * twice between its writes and the put, then the child and the parent twice: its memo keeps the
   * small writes' row and often not the rows of the value the child's piece extends, so the
   * piece's items are shared through the named writes alone.
   */
  peek: boolean;
  /** Reads of the latest checkpoint after the put (each followed by edits of what it gave). */
  reads: number;
  /** Also read an earlier checkpoint by id (by position, modulo) and the delta history. */
  back: number;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  add: fc.integer({ min: 0, max: 3 }),
  size: fc.constantFrom(0, 40, 3000),
  editAt: fc.option(fc.nat(50), { nil: null }),
  writes: fc.constantFrom('none', 'after', 'before'),
  peek: fc.boolean(),
  reads: fc.integer({ min: 1, max: 4 }),
  back: fc.nat(50),
});

/** Channel values, metadata and writes as plain JSON, for comparison. */
function plain(t: CheckpointTuple | undefined): unknown {
  if (t === undefined) return undefined;
  return JSON.parse(JSON.stringify({ values: t.checkpoint.channel_values, versions: t.checkpoint.channel_versions, seen: t.checkpoint.versions_seen, metadata: t.metadata, writes: t.pendingWrites, parent: t.parentConfig }));
}

/** Edits everything a read handed out, in place: a reader must give none of it back. */
function scribble(value: unknown, depth = 0): void {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  if (value instanceof HumanMessage || value instanceof AIMessage || value instanceof ToolMessage) {
    value.content = `${String(value.content)} (scribbled)`;
    if (value.id !== undefined) value.id = `${value.id}-scribbled`;
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) scribble(v, depth + 1);
    value.push('scribbled');
    return;
  }
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) scribble(o[k], depth + 1);
  o.scribbled = true;
}

let counter = 0;
/** The memo budget of the second saver: keeps a pending-writes row of short messages, not a checkpoint row holding a list of them. */
const VIEWER_MEMO = 4096;
/** List pieces naming pending writes that the generated chats wrote (the memo must be tested on them). */
let named = 0;
const message = (kind: number, size: number): BaseMessage => {
  const n = counter++;
  const content = `m${n} ${'x'.repeat(size)}`;
  if (kind % 3 === 0) return new HumanMessage({ id: `h${n}`, content });
  if (kind % 3 === 1) return new AIMessage({ id: `a${n}`, content, tool_calls: [{ id: `c${n}`, name: 'search', args: { q: `q${n}`, nested: { deep: [n, 'x'] } }, type: 'tool_call' }] });
  return new ToolMessage({ id: `t${n}`, content, tool_call_id: `c${n}` });
};

/** Runs one generated chat on three savers over `store` and compares every read. */
async function chat(store: CheckpointStore, steps: readonly Step[], snapshotRatio: number): Promise<void> {
  const thread = `t${counter++}`;
  const memo = new SessionCheckpointSaver(store, { snapshotRatio });
  const reference = new SessionCheckpointSaver(store, { snapshotRatio, parsedPayloadCache: 0 });
  const memory = new MemorySaver();
  const messages: BaseMessage[] = [];
  const items: { n: number; text: string; tags: string[] }[] = [];
  const profile: Record<string, unknown> = { turns: 0, tags: ['a'] };
  const ids: string[] = [];
  let parent: string | undefined;
  for (const [i, s] of steps.entries()) {
    const added = Array.from({ length: s.add }, (_, k) => message(i + k, s.size));
    messages.push(...added);
    for (let k = 0; k < s.add; k++) items.push({ n: items.length, text: 'y'.repeat(s.size), tags: ['a', `s${i}`] });
    if (s.editAt !== null && messages.length > 0) {
      const m = messages[s.editAt % messages.length] as BaseMessage;
      m.content = `${String(m.content)} edited at ${i}`;
    }
    profile.turns = i;
    const checkpoint: Checkpoint = {
      v: 4,
      id: uuid6(-1),
      ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      channel_values: { messages: [...messages], items: [...items], profile: { ...profile, tags: [...(profile.tags as string[]), `s${i}`] } },
      channel_versions: { messages: i + 1, items: i + 1, profile: i + 1 },
      versions_seen: { agent: { messages: i } },
    };
    const metadata = { source: 'loop' as const, step: i, parents: {}, note: { at: i } };
    const newVersions = { messages: i + 1, items: i + 1, profile: i + 1 };
    const writes: [string, unknown][] = [['messages', added], ['items', s.writes === 'before' ? items.slice(-s.add) : items.slice(-1)], ['profile', { write: i }]];
    const before = s.writes === 'before' && parent !== undefined && added.length > 0;
    const viewer = before && s.peek ? new SessionCheckpointSaver(store, { snapshotRatio, parsedPayloadCache: VIEWER_MEMO }) : undefined;
    if (before) {
      await memory.putWrites(cfg(thread, parent), writes, `task-${i}`);
      await memo.putWrites(cfg(thread, parent), writes, `task-${i}`);
      for (let r = 0; viewer !== undefined && r < 2; r++) {
        const ours = await viewer.getTuple(cfg(thread, parent));
        expect(plain(ours)).toEqual(plain(await memory.getTuple(cfg(thread, parent))));
        scribble(ours);
      }
    }
    await memory.put(cfg(thread, parent), checkpoint, metadata);
    await memo.put(cfg(thread, parent), checkpoint, metadata, newVersions);
    if (s.writes === 'after' && added.length > 0) {
      await memory.putWrites(cfg(thread, checkpoint.id), writes, `task-${i}`);
      await memo.putWrites(cfg(thread, checkpoint.id), writes, `task-${i}`);
    }
    for (let r = 0; viewer !== undefined && r < 2; r++) {
      for (const at of [checkpoint.id, parent]) {
        const ours = await viewer.getTuple(cfg(thread, at));
        expect(plain(ours)).toEqual(plain(await memory.getTuple(cfg(thread, at))));
        scribble(ours);
      }
    }
    if (before) {
      const row = await store.findBySourceRef(memo.namespace, checkpointRef(thread, '', checkpoint.id));
      const lists = (row?.payload as unknown as CheckpointPayload | undefined)?.lists ?? {};
      named += Object.values(lists).filter((piece) => piece.w?.some(isWriteSegment) === true).length;
    }
    parent = checkpoint.id;
    ids.push(checkpoint.id);
    const reads: (string | undefined)[] = [...Array.from({ length: s.reads }, () => undefined), ids[s.back % ids.length]];
    for (const id of reads) {
      const expected = plain(await memory.getTuple(cfg(thread, id)));
      const ours = await memo.getTuple(cfg(thread, id));
      expect(plain(ours)).toEqual(expected);
      expect(plain(await reference.getTuple(cfg(thread, id)))).toEqual(expected);
      scribble(ours);
    }
    // DeltaChannel's history of the same checkpoints: equal with and without the memo, edits included.
    const at = ids[s.back % ids.length] as string;
    for (let r = 0; r < 2; r++) {
      const history = await memo.getDeltaChannelHistory({ config: cfg(thread, at), channels: ['messages', 'items', 'profile'] });
      expect(JSON.parse(JSON.stringify(history))).toEqual(JSON.parse(JSON.stringify(await reference.getDeltaChannelHistory({ config: cfg(thread, at), channels: ['messages', 'items', 'profile'] }))));
      scribble(history);
    }
  }
  // A walk of the whole thread, twice, with edits in between.
  for (let r = 0; r < 2; r++) {
    const ours: CheckpointTuple[] = [];
    for await (const t of memo.list(cfg(thread))) ours.push(t);
    const theirs: CheckpointTuple[] = [];
    for await (const t of memory.list(cfg(thread))) theirs.push(t);
    expect(ours.map(plain)).toEqual(theirs.map(plain));
    scribble(ours);
  }
}

describe.each(list)('parsed-payload memo on $name', (backend) => {
  it('generated chats read several times, handed-out values edited in place: the same answers as without the memo and as MemorySaver', async () => {
    const store = await backend.open();
    try {
      named = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), fc.constantFrom(0, 0.05, 4), (steps, ratio) => chat(store, steps, ratio)),
        { numRuns: 25, seed: 37 },
      );
      expect(named, 'list pieces naming pending writes in the generated chats').toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  }, 240_000);
});

describe('ParsedPayloads', () => {
  async function rowOf(payload: Record<string, unknown>): Promise<StoredRow> {
    const store = new CheckpointStore(new MemoryAdapter());
    return store.create({ namespace: 'n', sessionId: 's', kind: 'k', payload });
  }

  it('keeps a payload from its second read on, and serves it only to a row of the same text', async () => {
    const memo = new ParsedPayloads(1 << 20);
    const row = await rowOf({ a: [1, { b: 'c' }] });
    const first = memo.row(row);
    expect(memo.shares(first.payload)).toBe(false);
    const second = memo.row({ ...row, payload: JSON.parse(row.payloadJson) } as StoredRow);
    expect(memo.shares(second.payload)).toBe(true);
    const third = memo.row({ ...row, payload: JSON.parse(row.payloadJson) } as StoredRow);
    expect(third.payload).toBe(second.payload);
    // The same hash with another text (which the store would refuse): parsed afresh, never served the kept one.
    const other = `${row.payloadJson.slice(0, -1)} }`;
    const forged = memo.row({ ...row, payloadJson: other, payload: JSON.parse(other) } as StoredRow);
    expect(forged.payload).not.toBe(second.payload);
    expect(memo.shares(forged.payload)).toBe(false);
  });

  it('keeps nothing with a budget of 0, and no text over half the budget', async () => {
    const row = await rowOf({ text: 'y'.repeat(100) });
    for (const memo of [new ParsedPayloads(0), new ParsedPayloads(100)]) {
      for (let i = 0; i < 3; i++) expect(memo.shares(memo.row({ ...row, payload: JSON.parse(row.payloadJson) } as StoredRow).payload)).toBe(false);
    }
    expect(createHash('sha256').update(row.payloadJson).digest('hex')).toBe(row.payloadSha256);
  });
});
