import type { AgentInputItem } from '@openai/agents';
import { CheckpointIntegrityError, type CheckpointStore } from '@session-checkpoint/core';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointSession } from './index.js';
import { keyedBackends, PG_URL } from './test-support/backends.js';

/*
 * Issue 36, item 5: CheckpointSession on a sealed and encrypted store (opened with `keys`). Items
 * are stored as envelopes nobody without the key reads; popItem, clearSession, compaction,
 * history mutations and maxItems keep every chain and head valid (verify finds nothing); and an
 * attacker with write access to the database (raw SQL, no key) who edits a row with its hash
 * recomputed, copies one to another session, or deletes a session's newest rows gets
 * CheckpointIntegrityError from getItems. The MemorySession oracle runs sealed too
 * (session-oracle.test.ts).
 */

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const turn = (n: number, session = 's'): AgentInputItem[] => [
  { role: 'user', content: `question ${n} secret-${session}` },
  { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `answer ${n}` }] },
];

interface RawRow {
  id: number;
  session_id: string;
  source_ref: string | null;
  payload_json: string;
}

const all = keyedBackends();
afterAll(async () => {
  for (const b of all) await b.cleanup();
});

/** Raw SQL on the store's table behind its back: SQLite through the file, PostgreSQL through a pool. */
function rawAccess(target: string): { rows(): Promise<RawRow[]>; run(sql: string, params: unknown[]): Promise<void>; close(): Promise<void> } {
  if (target.startsWith('sqlite:')) {
    const db = new Database(target.slice('sqlite:'.length));
    return {
      rows: async () => db.prepare('select id, session_id, source_ref, payload_json from checkpoints order by id').all() as RawRow[],
      run: async (sql, params) => void db.prepare(sql).run(...params),
      close: async () => void db.close(),
    };
  }
  const schema = target.slice('postgres:'.length);
  const pool = new pg.Pool({ connectionString: PG_URL, max: 1, options: `-c search_path="${schema}"` });
  return {
    rows: async () => (await pool.query<RawRow>('select id::int as id, session_id, source_ref, payload_json from checkpoints order by id')).rows,
    run: async (sql, params) => {
      let n = 0;
      await pool.query(sql.replace(/\?/g, () => `$${++n}`), params);
    },
    close: () => pool.end(),
  };
}

async function sealIntact(store: CheckpointStore): Promise<void> {
  const report = await store.verify();
  expect(report.failures).toEqual([]);
  expect(report.seal?.problems).toEqual([]);
  expect(report.seal?.plaintext).toBe(0);
}

const integrity = (error: unknown) => error instanceof CheckpointIntegrityError;

describe.each(all)('CheckpointSession on a sealed store ($name)', (backend) => {
  it.skipIf(!backend.available)('popItem, clearSession, compaction, mutations and maxItems keep every chain', async () => {
    const store = await backend.open(backend.target());
    try {
      const session = new CheckpointSession(store, { sessionId: 's' });
      for (let n = 0; n < 4; n++) await session.addItems(turn(n));
      expect(await session.popItem()).toEqual(turn(3)[1]);
      await sealIntact(store);
      await session.applyHistoryMutations({ mutations: [] });
      await session.replaceHistoryWithCompaction([{ type: 'compaction', encrypted_content: 'c' } as AgentInputItem, ...turn(2)]);
      expect(await session.getItems()).toHaveLength(3);
      await sealIntact(store);
      const capped = new CheckpointSession(store, { sessionId: 'capped', maxItems: 3 });
      for (let n = 0; n < 5; n++) await capped.addItems(turn(n, 'capped'));
      expect(await capped.getItems()).toEqual([turn(3, 'capped')[1], ...turn(4, 'capped')]);
      await sealIntact(store);
      await session.clearSession();
      expect(await new CheckpointSession(store, { sessionId: 's' }).getItems()).toEqual([]);
      await session.addItems(turn(9));
      expect(await new CheckpointSession(store, { sessionId: 's' }).getItems()).toEqual(turn(9));
      await sealIntact(store);
    } finally {
      await store.close();
    }
  });

  // The attacks need raw access to the database: SQLite and PostgreSQL.
  const attack = it.skipIf(!backend.available || backend.name.startsWith('memory'));

  attack('items are envelopes; an edited row, a row copied to another session and deleted newest rows fail closed', async () => {
    const target = backend.target() as string;
    const store = await backend.open(target);
    const raw = rawAccess(target);
    try {
      const victim = new CheckpointSession(store, { sessionId: 'victim' });
      const other = new CheckpointSession(store, { sessionId: 'other' });
      await other.addItems(turn(0, 'other'));
      for (let n = 0; n < 4; n++) await victim.addItems(turn(n, 'victim'));
      for (const row of await raw.rows()) expect(row.payload_json).not.toContain('secret-');

      // Edited: a ciphertext byte changed, the hash column recomputed.
      const victimRows = (await raw.rows()).filter((r) => r.session_id === 'victim');
      const first = victimRows[0] as RawRow;
      const envelope = JSON.parse(first.payload_json) as Record<string, unknown> & { ct: string };
      const edited = JSON.stringify(Object.fromEntries(Object.entries({ ...envelope, ct: `${envelope.ct.startsWith('A') ? 'B' : 'A'}${envelope.ct.slice(1)}` }).sort(([a], [b]) => (a < b ? -1 : 1))));
      await raw.run('update checkpoints set payload_json = ?, payload_sha256 = ? where id = ?', [edited, sha256Hex(edited), first.id]);
      await expect(new CheckpointSession(store, { sessionId: 'victim' }).getItems()).rejects.toSatisfy(integrity);
      await raw.run('update checkpoints set payload_json = ?, payload_sha256 = ? where id = ?', [first.payload_json, sha256Hex(first.payload_json), first.id]);
      expect(await new CheckpointSession(store, { sessionId: 'victim' }).getItems()).toHaveLength(8);

      // Copied: the victim's newest row, as the other session's next one.
      const newest = victimRows[victimRows.length - 1] as RawRow;
      await raw.run(
        `insert into checkpoints (namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref)
         select namespace, ?, kind, name, payload_json, payload_sha256, created_at, ? from checkpoints where id = ?`,
        ['other', (newest.source_ref as string).replace('/victim/', '/other/'), newest.id],
      );
      await expect(new CheckpointSession(store, { sessionId: 'other' }).getItems()).rejects.toSatisfy(integrity);

      // Deleted: the victim's newest rows (a rollback to an older history).
      await raw.run('delete from checkpoints where session_id = ? and id >= ?', ['victim', (victimRows[2] as RawRow).id]);
      await expect(new CheckpointSession(store, { sessionId: 'victim' }).getItems()).rejects.toSatisfy(integrity);
      await expect(new CheckpointSession(store, { sessionId: 'victim' }).getItems(2)).rejects.toSatisfy(integrity);
      expect((await store.verify()).seal?.problems.length).toBeGreaterThan(0);
    } finally {
      await raw.close();
      await store.close();
    }
  });
});
