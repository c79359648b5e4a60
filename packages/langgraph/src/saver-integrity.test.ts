import { CheckpointIntegrityError, type CheckpointStore } from '@session-checkpoint/core';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { dropSchema, PG_URL, tempDir, uniqueSchema } from './test-support/backends.js';
import { cfg, checkpointWith, listThread, meta } from './test-support/checkpoints.js';

/*
 * Every LangGraph row is a verified checkpoint: a value changed behind the store's back fails
 * closed with CheckpointIntegrityError naming the row, from getTuple and list alike, including
 * when the damaged row only holds a value that a later checkpoint carries over.
 */

interface Tamperable {
  store: CheckpointStore;
  /** Rewrites the payload text of a row, leaving its hash. */
  tamper: (id: number, from: string, to: string) => Promise<void>;
  close: () => Promise<void>;
}

const tmp = tempDir();
const schemas: string[] = [];
afterAll(async () => {
  tmp.remove();
  for (const s of schemas) await dropSchema(s);
});

const targets: { name: string; available: boolean; open: () => Promise<Tamperable> }[] = [
  {
    name: 'sqlite',
    available: true,
    open: async () => {
      const path = join(tmp.dir, `tamper-${Math.random().toString(36).slice(2)}.db`);
      const store = await openSqliteStore(path);
      const raw = new Database(path);
      return {
        store,
        tamper: async (id, from, to) => {
          raw.prepare('UPDATE checkpoints SET payload_json = replace(payload_json, ?, ?) WHERE id = ?').run(from, to, id);
        },
        close: async () => {
          raw.close();
          await store.close();
        },
      };
    },
  },
  {
    name: 'postgres',
    available: PG_URL !== undefined,
    open: async () => {
      const schema = uniqueSchema('sc_lg_tamper');
      schemas.push(schema);
      const store = await openPostgresStore(PG_URL ?? '', { schema, poolSize: 2 });
      const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
      return {
        store,
        tamper: async (id, from, to) => {
          await pool.query(`UPDATE "${schema}".checkpoints SET payload_json = replace(payload_json, $1, $2) WHERE id = $3`, [from, to, id]);
        },
        close: async () => {
          await pool.end();
          await store.close();
        },
      };
    },
  },
];

async function drain(saver: SessionCheckpointSaver, config: ReturnType<typeof cfg>): Promise<unknown[]> {
  const out = [];
  for await (const t of saver.list(config)) out.push(t);
  return out;
}

describe.each(targets)('tampering on $name', (target) => {
  it.skipIf(!target.available)('fails closed from getTuple and list, naming the row', async () => {
    const t = await target.open();
    try {
      // Small carried values are linked, not repeated, so that the second row reads the first.
      const saver = new SessionCheckpointSaver(t.store, { inlineCarriedBytes: 0 });
      const first = checkpointWith({ system: 'be kind', turn: 'one' });
      const c1 = await saver.put(cfg('t'), first, meta(0), first.channel_versions);
      const second = { ...checkpointWith({ system: 'be kind', turn: 'two' }), channel_versions: { system: 1, turn: 2 } };
      const c2 = await saver.put(c1, second, meta(1), { turn: 2 });
      await saver.putWrites(c2, [['turn', 'three']], 'task');
      const rows = (await t.store.history('t', { namespace: 'langgraph', limit: 10 })).sort((a, b) => a.id - b.id);
      const [row1, row2, write] = rows;
      if (!row1 || !row2 || !write) throw new Error('rows missing');

      // A write: the tuple it belongs to fails.
      await t.tamper(write.id, 'three', 'THREE');
      const named = (id: number) => (error: unknown) => error instanceof CheckpointIntegrityError && error.ids.includes(id);
      await expect(saver.getTuple(c2)).rejects.toSatisfy(named(write.id));
      await expect(drain(saver, cfg('t'))).rejects.toSatisfy(named(write.id));
      await t.tamper(write.id, 'THREE', 'three');
      expect(await drain(saver, cfg('t'))).toHaveLength(2);

      // The first checkpoint holds "system", which the second carries over: both fail.
      await t.tamper(row1.id, 'be kind', 'be evil');
      await expect(saver.getTuple(c1)).rejects.toSatisfy(named(row1.id));
      await expect(saver.getTuple(cfg('t'))).rejects.toSatisfy(named(row1.id));
      await expect(drain(saver, cfg('t'))).rejects.toSatisfy(named(row1.id));
      await expect(drain(saver, {} as never)).rejects.toThrow(CheckpointIntegrityError);
      const report = await t.store.verify();
      expect(report.failures.map((f) => f.id)).toEqual([row1.id]);
      expect(row2.kind).toBe('langgraph.checkpoint');
    } finally {
      await t.close();
    }
  });
});

describe('pieces of a growing list on sqlite', () => {
  /** Six checkpoints; `items` grows by one each step (stored as the appended item), `system` is carried. */
  async function growing(saver: SessionCheckpointSaver): Promise<string[]> {
    const ids: string[] = [];
    let handed: unknown[] = [];
    let parent: string | undefined;
    for (let i = 0; i < 6; i++) {
      const cp = { ...checkpointWith({ items: [...handed, `item-${i}`], system: 'sys' }), channel_versions: { items: i + 1, system: 1 } };
      const config = await saver.put(cfg('g', parent), cp, meta(i), i === 0 ? { items: 1, system: 1 } : { items: i + 1 });
      parent = String(config.configurable?.checkpoint_id);
      ids.push(parent);
      handed = (await saver.getTuple(config))?.checkpoint.channel_values.items as unknown[];
    }
    return ids;
  }

  const names = (id: string) => (error: unknown) =>
    error instanceof CheckpointIntegrityError && error.message.includes(id) && error.message.includes("'items'");

  /** A SQLite file with a six-step growing thread, opened through the store and raw. */
  async function onGrowingFile(run: (f: { store: CheckpointStore; raw: Database.Database; saver: SessionCheckpointSaver; ids: string[]; last: string }) => Promise<void>): Promise<void> {
    const path = join(tmp.dir, `pieces-${Math.random().toString(36).slice(2)}.db`);
    const store = await openSqliteStore(path);
    const raw = new Database(path);
    try {
      const saver = new SessionCheckpointSaver(store);
      const ids = await growing(saver);
      await run({ store, raw, saver, ids, last: ids[5] as string });
    } finally {
      raw.close();
      await store.close();
    }
  }

  it('a tampered middle piece (even re-hashed) fails closed, naming the checkpoint and the channel', async () => {
    await onGrowingFile(async ({ store, raw, saver, last }) => {
      const rows = raw.prepare("SELECT id, payload_json FROM checkpoints WHERE kind = 'langgraph.checkpoint' ORDER BY source_ref").all() as { id: number; payload_json: string }[];
      const middle = rows[2] as { id: number; payload_json: string };
      expect(JSON.parse(middle.payload_json).lists.items.j).toEqual(['item-2']);
      raw.prepare('UPDATE checkpoints SET payload_json = replace(payload_json, ?, ?) WHERE id = ?').run('item-2', 'item-X', middle.id);
      await expect(saver.getTuple(cfg('g', last))).rejects.toSatisfy(names(last));
      await expect(listThread(saver, 'g')).rejects.toThrow(CheckpointIntegrityError);
      // Re-hashed so the row itself verifies: the link from the next piece no longer matches.
      const tampered = await store.adapter.getRow(middle.id, 'langgraph');
      const { sha256Hex } = await import('@session-checkpoint/core');
      raw.prepare('UPDATE checkpoints SET payload_sha256 = ? WHERE id = ?').run(sha256Hex(tampered?.payloadJson ?? ''), middle.id);
      expect((await store.verify()).failures).toEqual([]);
      await expect(saver.getTuple(cfg('g', last))).rejects.toSatisfy(names(last));
      await expect(listThread(saver, 'g')).rejects.toSatisfy((e: unknown) => e instanceof CheckpointIntegrityError && String((e as Error).message).includes("'items'"));
    });
  });

  it('a deleted middle piece fails closed, naming the checkpoint and the channel', async () => {
    await onGrowingFile(async ({ raw, saver, ids, last }) => {
      raw.prepare("DELETE FROM checkpoints WHERE kind = 'langgraph.checkpoint' AND source_ref LIKE ?").run(`%${ids[2] as string}`);
      await expect(saver.getTuple(cfg('g', last))).rejects.toSatisfy(names(last));
      await expect(listThread(saver, 'g')).rejects.toThrow(CheckpointIntegrityError);
    });
  });
});
