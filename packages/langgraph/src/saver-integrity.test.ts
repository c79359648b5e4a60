import { CheckpointIntegrityError, type CheckpointStore } from '@session-checkpoint/core';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionCheckpointSaver } from './index.js';
import { dropSchema, PG_URL, tempDir, uniqueSchema } from './test-support/backends.js';
import { cfg, checkpointWith, meta } from './test-support/checkpoints.js';

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
      const saver = new SessionCheckpointSaver(t.store);
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
