import { CheckpointIntegrityError, CheckpointStore, MemoryAdapter, sha256Hex, type Checkpoint as StoredRow } from '@session-checkpoint/core';
import { openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { PART_OVERHEAD, splitItems } from './format/parts.js';
import { backends, tempDir } from './test-support/backends.js';
import { cfg, checkpointWith, listThread, meta } from './test-support/checkpoints.js';

/*
 * Values over one row's limit go to part rows: a list (or an object whose bulk is one list) as
 * slices of its items, anything else as slices of its text. Both forms read back as put, every
 * part within the store's limit, and a part changed or gone fails closed naming the channel.
 */

const list = backends();
afterAll(async () => {
  for (const b of list) await b.cleanup();
});

/** A message-like item of about `bytes` bytes, with quotes and a non-ASCII character. */
const item = (i: number, bytes: number) => ({ id: `m${i}`, type: 'tool', content: `"quoted" ü ${'x'.repeat(bytes)}` });
const items = (n: number, bytes: number) => Array.from({ length: n }, (_, i) => item(i, bytes));

async function partRows(store: CheckpointStore): Promise<StoredRow[]> {
  const rows = await store.list({ namespace: 'langgraph', limit: 1000 });
  return rows.filter((r) => r.kind === 'langgraph.part');
}

describe.each(list)('values over the row limit on $name', (backend) => {
  it.skipIf(!backend.available)('a list goes to parts as slices of its items, each part within the limit, and reads back as put', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const messages = items(300, 6000); // about 1.8 MB
      const cp = checkpointWith({ messages, small: 1 });
      const config = await saver.put(cfg('t'), cp, meta(0), cp.channel_versions);
      expect((await saver.getTuple(config))?.checkpoint.channel_values).toEqual({ messages, small: 1 });
      expect((await listThread(saver, 't'))[0]?.checkpoint.channel_values).toEqual({ messages, small: 1 });
      const parts = await partRows(store);
      expect(parts.length).toBeGreaterThanOrEqual(2);
      for (const row of parts) {
        expect(row.payloadJson.length).toBeLessThanOrEqual(store.limits.maxPayloadBytes);
        const p = row.payload as { langgraph: number; items?: unknown[]; text?: string };
        expect(p.langgraph).toBe(3);
        expect(Array.isArray(p.items) && p.text === undefined).toBe(true);
      }
      // The slices hold every item once, in order.
      const joined = parts.sort((a, b) => (a.payload as { k: number }).k - (b.payload as { k: number }).k).flatMap((r) => (r.payload as { items: unknown[] }).items);
      expect(joined).toEqual(messages);
      const [row] = (await store.list({ namespace: 'langgraph', limit: 1000 })).filter((r) => r.kind === 'langgraph.checkpoint');
      expect((row?.payload as { langgraph: number }).langgraph).toBe(3);
      expect((await store.verify()).failures).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('items appended in one step over the limit go to parts as item slices; the list reads back as put', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const first = items(100, 6000); // 600 KB: the snapshot rule allows a piece of up to 4x that
      const cp1 = checkpointWith({ messages: first });
      const c1 = await saver.put(cfg('t'), cp1, meta(0), cp1.channel_versions);
      const handed = (await saver.getTuple(c1))?.checkpoint.channel_values.messages as unknown[];
      const grown = [...handed, ...items(200, 6000).map((m, i) => ({ ...m, id: `n${i}` }))];
      const cp2 = { ...checkpointWith({ messages: grown }), channel_versions: { messages: 2 } };
      const c2 = await saver.put(c1, cp2, meta(1), { messages: 2 });
      expect((await saver.getTuple(c2))?.checkpoint.channel_values).toEqual({ messages: grown });
      expect((await listThread(saver, 't')).map((t) => (t.checkpoint.channel_values.messages as unknown[]).length)).toEqual([300, 100]);
      // The second row stores only the appended items, as a piece whose parts are item slices.
      const rows = (await store.list({ namespace: 'langgraph', limit: 1000 })).filter((r) => r.kind === 'langgraph.checkpoint');
      const piece = rows.map((r) => (r.payload as { lists?: Record<string, { form?: string; n: number; parts?: unknown[] }> }).lists?.messages).find((x) => x !== undefined);
      expect(piece).toMatchObject({ form: 'items', n: 100 });
      expect(piece?.parts?.length).toBeGreaterThanOrEqual(2);
      expect((await partRows(store)).every((r) => Array.isArray((r.payload as { items?: unknown }).items))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('an object whose bulk is one list keeps the rest in its row and reads back as put (DeltaChannel snapshots)', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const snapshot = { kind: 'snapshot', note: 'rest of the object', value: items(250, 6000), counts: [1, 2, 3] };
      const cp = checkpointWith({ history: snapshot });
      const config = await saver.put(cfg('t'), cp, meta(0), cp.channel_versions);
      expect((await saver.getTuple(config))?.checkpoint.channel_values).toEqual({ history: snapshot });
      const parts = await partRows(store);
      expect(parts.length).toBeGreaterThanOrEqual(2);
      for (const row of parts) expect(Array.isArray((row.payload as { items?: unknown[] }).items)).toBe(true);
      const [row] = (await store.list({ namespace: 'langgraph', limit: 1000 })).filter((r) => r.kind === 'langgraph.checkpoint');
      const stored = (row?.payload as { values: Record<string, { form?: string; at?: string; j?: unknown }> }).values.history;
      expect(stored).toMatchObject({ form: 'items', at: 'value', j: { kind: 'snapshot', note: 'rest of the object', counts: [1, 2, 3] } });
    } finally {
      await store.close();
    }
  });

  it.skipIf(!backend.available)('a list with one item over the limit, and a pending write over it, go to parts as text and read back as put', async () => {
    const store = await backend.open();
    try {
      const saver = new SessionCheckpointSaver(store);
      const huge = [{ a: 1 }, { text: `"x"${'y'.repeat(store.limits.maxPayloadBytes)}` }, 'tail'];
      const cp = checkpointWith({ huge });
      const config = await saver.put(cfg('t'), cp, meta(0), cp.channel_versions);
      expect((await saver.getTuple(config))?.checkpoint.channel_values).toEqual({ huge });
      expect((await partRows(store)).every((r) => typeof (r.payload as { text?: unknown }).text === 'string')).toBe(true);
      // A pending write of a long list: its parts are item slices.
      const out = items(250, 6000);
      await saver.putWrites(config, [['out', out]], 'task-1');
      expect((await saver.getTuple(config))?.pendingWrites).toEqual([['task-1', 'out', out]]);
      expect((await partRows(store)).some((r) => Array.isArray((r.payload as { items?: unknown }).items))).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('item slices', () => {
  it('splitItems cuts between items within the budget, and gives up on an item alone over it', () => {
    expect(splitItems(['aa', 'bb', 'cc'], 12)).toEqual([['aa', 'bb'], ['cc']]);
    expect(splitItems([], 12)).toEqual([]);
    expect(splitItems(['a'.repeat(20)], 12)).toBeUndefined();
  });

  it('a slice whose canonical form is longer than its JSON.stringify form is halved until it fits', async () => {
    // Python spells 1e-7 as 1e-07: each item is a byte longer in the canonical form than splitItems counted.
    const store = new CheckpointStore(new MemoryAdapter(), { limits: { maxPayloadBytes: 16384 } });
    const saver = new SessionCheckpointSaver(store);
    const tiny = Array.from({ length: 12000 }, () => 1e-7);
    const cp = checkpointWith({ tiny });
    const config = await saver.put(cfg('t'), cp, meta(0), cp.channel_versions);
    expect((await saver.getTuple(config))?.checkpoint.channel_values).toEqual({ tiny });
    const parts = await partRows(store);
    expect(parts.length).toBeGreaterThan((splitItems(tiny, 16384 - PART_OVERHEAD) ?? []).length);
    for (const row of parts) {
      expect(row.payloadJson.length).toBeLessThanOrEqual(16384);
      expect(Array.isArray((row.payload as { items?: unknown }).items)).toBe(true);
    }
  });
});

describe('damaged parts on sqlite', () => {
  const tmp = tempDir();
  afterAll(() => tmp.remove());

  async function withParts(run: (f: { raw: Database.Database; saver: SessionCheckpointSaver; config: ReturnType<typeof cfg>; parts: { id: number; source_ref: string }[] }) => Promise<void>) {
    const path = join(tmp.dir, `parts-${Math.random().toString(36).slice(2)}.db`);
    const store = await openSqliteStore(path, { limits: { maxPayloadBytes: 65536 } });
    const raw = new Database(path);
    try {
      const saver = new SessionCheckpointSaver(store);
      const cp = checkpointWith({ messages: items(60, 3000) });
      const put = await saver.put(cfg('t'), cp, meta(0), cp.channel_versions);
      const config = cfg('t', String(put.configurable?.checkpoint_id));
      const parts = raw.prepare("SELECT id, source_ref FROM checkpoints WHERE kind = 'langgraph.part' ORDER BY id").all() as { id: number; source_ref: string }[];
      expect(parts.length).toBeGreaterThanOrEqual(3);
      await run({ raw, saver, config, parts });
    } finally {
      raw.close();
      await store.close();
    }
  }

  const namesChannel = (e: unknown) => e instanceof CheckpointIntegrityError && e.message.includes("'messages'");

  it('a middle part changed and re-hashed fails closed from getTuple and list, naming the channel', async () => {
    await withParts(async ({ raw, saver, config, parts }) => {
      const middle = parts[1] as { id: number };
      const text = (raw.prepare('SELECT payload_json AS p FROM checkpoints WHERE id = ?').get(middle.id) as { p: string }).p;
      const changed = text.replace('m21', 'm99');
      expect(changed).not.toBe(text);
      raw.prepare('UPDATE checkpoints SET payload_json = ?, payload_sha256 = ? WHERE id = ?').run(changed, sha256Hex(changed), middle.id);
      await expect(saver.getTuple(config)).rejects.toSatisfy(namesChannel);
      await expect(listThread(saver, 't')).rejects.toSatisfy(namesChannel);
    });
  });

  it('a middle part deleted, or two parts swapped, fails closed naming the channel', async () => {
    await withParts(async ({ raw, saver, config, parts }) => {
      const [first, second] = parts as [{ id: number; source_ref: string }, { id: number; source_ref: string }];
      // Swap the two rows' places: each row verifies, the checkpoint's part list no longer matches.
      raw.prepare('UPDATE checkpoints SET source_ref = ? WHERE id = ?').run('swap', first.id);
      raw.prepare('UPDATE checkpoints SET source_ref = ? WHERE id = ?').run(first.source_ref, second.id);
      raw.prepare('UPDATE checkpoints SET source_ref = ? WHERE id = ?').run(second.source_ref, first.id);
      await expect(saver.getTuple(config)).rejects.toSatisfy((e: unknown) => namesChannel(e) && /SHA-256 differs/.test((e as Error).message));
      raw.prepare('DELETE FROM checkpoints WHERE id = ?').run(second.id);
      await expect(saver.getTuple(config)).rejects.toSatisfy((e: unknown) => namesChannel(e) && /part 0 is missing/.test((e as Error).message));
      await expect(listThread(saver, 't')).rejects.toSatisfy(namesChannel);
    });
  });
});
