import { MemorySaver } from '@langchain/langgraph-checkpoint';
import { CheckpointIntegrityError, Keyring, type CheckpointStore } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateCheckpoints, SessionCheckpointSaver, verifyMigration } from './index.js';
import { dropSchema, PG_URL, tempDir, uniqueSchema } from './test-support/backends.js';
import { cfg, checkpointWith, listThread, meta } from './test-support/checkpoints.js';

/*
 * Issue 36, item 5: the saver on a sealed and encrypted store (opened with `keys`). Everything it
 * writes (checkpoints, growing list pieces, part rows of values over the row limit, writes) is
 * sealed, chained and encrypted; retention, prune, deleteThread and migrations keep every chain and
 * head valid (verify finds nothing); and an attacker with write access to the database (raw SQL,
 * no key) who edits a row, copies one to another thread or deletes a thread's newest rows gets
 * CheckpointIntegrityError from the saver's reads. The MemorySaver oracle runs sealed too
 * (saver-oracle.test.ts).
 */

const keys = new Keyring([{ id: 'lg-key', secret: new Uint8Array(32).fill(36) }]);
/** An attacker's SHA-256 of an edited payload (they recompute the hash column). */
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

interface RawRow {
  id: number;
  session_id: string;
  kind: string;
  source_ref: string | null;
  payload_json: string;
}

/** A sealed store, and raw SQL on its table as someone without the key would use it. */
interface Subject {
  store: CheckpointStore;
  rows(): Promise<RawRow[]>;
  run(sql: string, params: unknown[]): Promise<void>;
  /** `?` placeholders become `$n` on PostgreSQL; the table is `checkpoints`. */
  close(): Promise<void>;
}

const tmp = tempDir();
const schemas: string[] = [];
afterAll(async () => {
  tmp.remove();
  for (const s of schemas) await dropSchema(s);
});

const subjects: { name: string; available: boolean; open: (options?: { maxPayloadBytes?: number }) => Promise<Subject> }[] = [
  {
    name: 'sqlite',
    available: true,
    open: async (options = {}) => {
      const path = join(tmp.dir, `sealed-${Math.random().toString(36).slice(2)}.db`);
      const store = await openSqliteStore(path, { keys, ...(options.maxPayloadBytes ? { limits: { maxPayloadBytes: options.maxPayloadBytes } } : {}) });
      const raw = new Database(path);
      return {
        store,
        rows: async () => raw.prepare('select id, session_id, kind, source_ref, payload_json from checkpoints order by id').all() as RawRow[],
        run: async (sql, params) => void raw.prepare(sql).run(...params),
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
    open: async (options = {}) => {
      const schema = uniqueSchema('sc_lg_sealed');
      schemas.push(schema);
      const store = await openPostgresStore(PG_URL ?? '', { schema, poolSize: 2, keys, ...(options.maxPayloadBytes ? { limits: { maxPayloadBytes: options.maxPayloadBytes } } : {}) });
      const pool = new pg.Pool({ connectionString: PG_URL, max: 1, options: `-c search_path="${schema}"` });
      let n = 0;
      const numbered = (sql: string) => sql.replace(/\?/g, () => `$${++n}`);
      return {
        store,
        rows: async () => (await pool.query<RawRow>('select id::int as id, session_id, kind, source_ref, payload_json from checkpoints order by id')).rows,
        run: async (sql, params) => {
          n = 0;
          await pool.query(numbered(sql), params);
        },
        close: async () => {
          await pool.end();
          await store.close();
        },
      };
    },
  },
];

/** Puts `steps` checkpoints on a thread, `messages` growing by one each (stored as pieces), with a write per step. */
async function chat(saver: SessionCheckpointSaver, thread: string, steps: number, big = '', pad = ''): Promise<string[]> {
  const ids: string[] = [];
  let parent: string | undefined;
  let messages: unknown[] = [];
  for (let i = 0; i < steps; i++) {
    messages = [...messages, `message ${i} of ${thread}: secret-${thread}-${i}${pad}`];
    const values: Record<string, unknown> = { messages, system: 'be kind', ...(big ? { blob: `${big}${i}` } : {}) };
    const cp = checkpointWith(values, i + 1, { system: 1 });
    const config = await saver.put(cfg(thread, parent), cp, meta(i), i === 0 ? cp.channel_versions : { messages: i + 1, ...(big ? { blob: i + 1 } : {}) });
    parent = String(config.configurable?.checkpoint_id);
    ids.push(parent);
    await saver.putWrites(config, [['messages', `pending ${i}`]], `task-${i}`);
    messages = (await saver.getTuple(config))?.checkpoint.channel_values.messages as unknown[];
  }
  return ids;
}

async function sealIntact(store: CheckpointStore): Promise<void> {
  const report = await store.verify();
  expect(report.failures).toEqual([]);
  expect(report.seal?.problems).toEqual([]);
  expect(report.seal?.plaintext).toBe(0);
}

const integrity = (error: unknown) => error instanceof CheckpointIntegrityError;

describe.each(subjects)('the saver on a sealed store ($name)', (subject) => {
  it.skipIf(!subject.available)('pieces, part rows and writes are sealed and encrypted; retention, prune and deleteThread keep every chain', async () => {
    const s = await subject.open({ maxPayloadBytes: 4096 });
    try {
      const saver = new SessionCheckpointSaver(s.store, { maxCheckpointsPerThread: 4 });
      const big = 'x'.repeat(6000);
      const ids = await chat(saver, 'a', 8, big);
      await chat(saver, 'b', 3);
      // Nothing readable without the key: no message text, no value over the row limit.
      const raw = await s.rows();
      expect(raw.some((r) => r.kind === 'langgraph.part')).toBe(true);
      for (const r of raw) {
        expect(r.payload_json).not.toContain('secret-');
        expect(r.payload_json).not.toContain('xxxx');
        expect(JSON.parse(r.payload_json)).toMatchObject({ sealed: 1, key: 'lg-key' });
      }
      // Retention kept the newest 4 of thread a, whole (and the rows holding what their pieces link to).
      const listed = await listThread(saver, 'a');
      expect(listed.map((t) => t.checkpoint.id).slice(0, 4)).toEqual(ids.slice(-4).reverse());
      expect(listed[0]?.checkpoint.channel_values.messages).toHaveLength(8);
      expect(listed[0]?.checkpoint.channel_values.blob).toBe(`${big}7`);
      expect(listed[0]?.pendingWrites).toEqual([['task-7', 'messages', 'pending 7']]);
      await sealIntact(s.store);
      // A fresh saver (no cache) reads the same.
      expect((await new SessionCheckpointSaver(s.store).getTuple(cfg('a')))?.checkpoint.channel_values).toEqual(listed[0]?.checkpoint.channel_values);

      const pruned = await saver.prune({ keepLatest: 1, apply: true });
      expect(pruned.checkpoints.length).toBeGreaterThan(0);
      await sealIntact(s.store);
      expect((await saver.getTuple(cfg('a')))?.checkpoint.channel_values.messages).toHaveLength(8);

      await saver.deleteThread('b');
      expect(await listThread(saver, 'b')).toEqual([]);
      await sealIntact(s.store);
      // The thread starts again after its deletion.
      await chat(saver, 'b', 2);
      expect((await saver.getTuple(cfg('b')))?.checkpoint.channel_values.messages).toHaveLength(2);
      await sealIntact(s.store);
    } finally {
      await s.close();
    }
  });

  it.skipIf(!subject.available)('migrates in from MemorySaver and out to it: both sides answer alike, the chains hold', async () => {
    const s = await subject.open();
    try {
      const source = new MemorySaver();
      let parent: string | undefined;
      for (let i = 0; i < 4; i++) {
        const cp = checkpointWith({ messages: Array.from({ length: i + 1 }, (_, k) => `m${k}`), step: i }, i + 1);
        const config = await source.put(cfg('t', parent), cp, meta(i));
        parent = String(config.configurable?.checkpoint_id);
        await source.putWrites(config, [['step', i]], `task-${i}`);
      }
      const sealed = new SessionCheckpointSaver(s.store);
      const into = await migrateCheckpoints(source, sealed, { apply: true });
      expect(into.checkpoints).toBe(4);
      expect(into.verification?.differences).toEqual([]);
      await sealIntact(s.store);
      const out = new MemorySaver();
      const back = await migrateCheckpoints(sealed, out, { apply: true });
      expect(back.checkpoints).toBe(4);
      expect((await verifyMigration(source, out)).differences).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it.skipIf(!subject.available)('a row edited with its hash recomputed fails closed', async () => {
    const s = await subject.open();
    try {
      const saver = new SessionCheckpointSaver(s.store);
      await chat(saver, 't', 3);
      const [newest] = (await s.rows()).filter((r) => r.kind === 'langgraph.checkpoint').slice(-1);
      if (!newest) throw new Error('no row');
      // Flip one character of the ciphertext and recompute the hash column.
      const envelope = JSON.parse(newest.payload_json) as { ct: string };
      const flipped = JSON.stringify({ ...envelope, ct: `${envelope.ct[0] === 'A' ? 'B' : 'A'}${envelope.ct.slice(1)}` });
      const text = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(flipped) as object).sort(([a], [b]) => (a < b ? -1 : 1))));
      await s.run('update checkpoints set payload_json = ?, payload_sha256 = ? where id = ?', [text, sha256Hex(text), newest.id]);
      await expect(saver.getTuple(cfg('t'))).rejects.toSatisfy(integrity);
      await expect(new SessionCheckpointSaver(s.store).getTuple(cfg('t'))).rejects.toSatisfy(integrity);
      await expect(listThread(new SessionCheckpointSaver(s.store), 't')).rejects.toSatisfy(integrity);
    } finally {
      await s.close();
    }
  });

  it.skipIf(!subject.available)('a row copied to another thread fails closed there', async () => {
    const s = await subject.open();
    try {
      const saver = new SessionCheckpointSaver(s.store);
      // The other thread first: the victim's checkpoint ids are newer, so the copy is its newest.
      await chat(saver, 'other', 1);
      await chat(saver, 'victim', 2);
      const [row] = (await s.rows()).filter((r) => r.kind === 'langgraph.checkpoint' && r.session_id === 'victim').slice(-1);
      if (!row?.source_ref) throw new Error('no row');
      // The victim's newest checkpoint, copied as the other thread's newest (its refs renamed).
      await s.run(
        `insert into checkpoints (namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref)
         select namespace, ?, kind, name, payload_json, payload_sha256, created_at, ? from checkpoints where id = ?`,
        ['other', row.source_ref.replace('victim', 'other'), row.id],
      );
      await expect(new SessionCheckpointSaver(s.store).getTuple(cfg('other'))).rejects.toSatisfy(integrity);
      await expect(listThread(new SessionCheckpointSaver(s.store), 'other')).rejects.toSatisfy(integrity);
      // The victim's own thread still reads.
      expect((await saver.getTuple(cfg('victim')))?.checkpoint.channel_values.messages).toHaveLength(2);
    } finally {
      await s.close();
    }
  });

  it.skipIf(!subject.available)("a thread's newest rows deleted (a rollback) fail closed: no silent resume from an older step", async () => {
    const s = await subject.open();
    try {
      const saver = new SessionCheckpointSaver(s.store);
      const ids = await chat(saver, 't', 4);
      const rows = (await s.rows()).filter((r) => r.session_id === 't');
      const newest = rows.find((r) => r.kind === 'langgraph.checkpoint' && r.source_ref?.includes(ids[3] as string));
      if (!newest) throw new Error('no row');
      // The newest checkpoint and everything written after it.
      await s.run('delete from checkpoints where session_id = ? and id >= ?', ['t', newest.id]);
      await expect(new SessionCheckpointSaver(s.store).getTuple(cfg('t'))).rejects.toSatisfy(integrity);
      await expect(saver.getTuple(cfg('t'))).rejects.toSatisfy(integrity);
      await expect(listThread(new SessionCheckpointSaver(s.store), 't')).rejects.toSatisfy(integrity);
      expect((await s.store.verify()).seal?.problems.length).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });
});

describe('growing lists on a sealed store', () => {
  it('a put that needs part rows still stores the list as its appended items (the links hold)', async () => {
    const dir = tempDir();
    try {
      const sizes: number[] = [];
      for (const sealed of [false, true]) {
        const store = await openSqliteStore(join(dir.dir, `pieces-${String(sealed)}.db`), { limits: { maxPayloadBytes: 4096 }, ...(sealed ? { keys, compress: false } : {}) });
        try {
          await chat(new SessionCheckpointSaver(store), 't', 12, 'y'.repeat(5000), ' words'.repeat(50));
          const raw = new Database(join(dir.dir, `pieces-${String(sealed)}.db`), { readonly: true });
          sizes.push((raw.prepare("select sum(length(payload_json)) as n from checkpoints where kind = 'langgraph.checkpoint'").get() as { n: number }).n);
          raw.close();
        } finally {
          await store.close();
        }
      }
      // Envelopes without compression are about 4/3 of their plaintext plus a fixed part (1.46x
      // here); the list stored in full at every step, as when the links were checked on the
      // envelopes' hashes, made 2.2x.
      expect(sizes[1]).toBeLessThan((sizes[0] as number) * 1.7);
    } finally {
      dir.remove();
    }
  });
});
