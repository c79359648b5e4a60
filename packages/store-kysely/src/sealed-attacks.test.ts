/**
 * Issue 36, item 7: attacks on a sealed store at the store level, on SQLite and PostgreSQL, made
 * with raw SQL as someone with write access to the file or the database would make them. Each one
 * fails closed with a typed error and leaves the store exactly as the attack left it (a refused
 * read writes nothing). The bundle edited in transit is in @session-checkpoint/bundle's
 * sealed-bundles.test.ts (on SQLite and PostgreSQL too); key files with loose permissions here and
 * in core's key-file.test.ts.
 */
import { chmodSync, copyFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { CheckpointStore, isCheckpointIntegrityError, isStoreSecurityError, Keyring, loadKeyFile, writeKeyFile, type Checkpoint } from '@session-checkpoint/core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore, openSqliteStore } from './index.js';
import { dropSchema, PG_URL, testPool, uniqueSchema } from './test-support/postgres.js';
import { rawPostgres, rawSqlite, type RawStore } from './test-support/raw-store.js';
import { tempDir } from './test-support/temp-dir.js';

const keys = new Keyring([{ id: 'k1', secret: new Uint8Array(32).fill(7) }]);
/** An attacker's SHA-256 of an edited payload (node:crypto: adapter packages never import the store's hasher). */
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const at = (second: number) => `2026-08-08T07:00:${String(second).padStart(2, '0')}Z`;

interface Subject {
  store: CheckpointStore;
  raw: RawStore;
  /** A store over the same data with other options (another keyring). */
  reopen(options: { keys: Keyring }): Promise<CheckpointStore>;
  /** A copy of the whole store as it is now; `restoreSession` copies one session back from it. */
  backup(): Promise<{ restoreSession(namespace: string, sessionId: string): Promise<void> }>;
  close(): Promise<void>;
}

const pool = PG_URL ? testPool(6) : undefined;
afterAll(async () => pool?.end());

async function sqliteSubject(): Promise<Subject> {
  const dir = tempDir('sc-attack-');
  const path = dir.file('store.sqlite');
  const store = await openSqliteStore(path, { keys });
  const raw = rawSqlite(path);
  const opened: CheckpointStore[] = [store];
  return {
    store,
    raw,
    reopen: async (options) => {
      const other = await openSqliteStore(path, { ...options, create: false });
      opened.push(other);
      return other;
    },
    backup: async () => {
      await raw.run('pragma wal_checkpoint(full)');
      const copy = dir.file('backup.sqlite');
      copyFileSync(path, copy);
      return {
        restoreSession: async (namespace, sessionId) => {
          await raw.run(`attach database '${copy.replaceAll("'", "''")}' as backup`);
          await raw.run('delete from checkpoints where namespace = ? and session_id = ?', [namespace, sessionId]);
          await raw.run('insert into checkpoints select * from backup.checkpoints where namespace = ? and session_id = ?', [namespace, sessionId]);
          const heads = (await raw.rows<{ key: string }>('select key from backup.checkpoint_meta where value like ?', [`%"ns":"${namespace}","session":"${sessionId}"%`])).map((r) => r.key);
          for (const key of heads) await raw.run('insert or replace into checkpoint_meta select * from backup.checkpoint_meta where key = ?', [key]);
          await raw.run('detach database backup');
        },
      };
    },
    close: async () => {
      for (const s of opened) await s.close();
      await raw.close();
      dir.remove();
    },
  };
}

async function postgresSubject(): Promise<Subject> {
  const schema = uniqueSchema('sc_attack');
  const store = await openPostgresStore(pool as NonNullable<typeof pool>, { schema, keys });
  const raw = rawPostgres(pool as NonNullable<typeof pool>, schema);
  const opened: CheckpointStore[] = [store];
  return {
    store,
    raw,
    reopen: async (options) => {
      const other = await openPostgresStore(pool as NonNullable<typeof pool>, { schema, ...options, create: false });
      opened.push(other);
      return other;
    },
    backup: async () => {
      const name = `${schema}_backup`;
      await raw.run(`create table "${name}_rows" as select * from checkpoints`);
      await raw.run(`create table "${name}_meta" as select * from checkpoint_meta`);
      return {
        restoreSession: async (namespace, sessionId) => {
          await raw.run('delete from checkpoints where namespace = ? and session_id = ?', [namespace, sessionId]);
          await raw.run(`insert into checkpoints select * from "${name}_rows" where namespace = ? and session_id = ?`, [namespace, sessionId]);
          const pattern = `%"ns":"${namespace}","session":"${sessionId}"%`;
          await raw.run(`delete from checkpoint_meta where key in (select key from "${name}_meta" where value like ?)`, [pattern]);
          await raw.run(`insert into checkpoint_meta select * from "${name}_meta" where value like ?`, [pattern]);
          await raw.run(`drop table "${name}_rows"`);
          await raw.run(`drop table "${name}_meta"`);
        },
      };
    },
    close: async () => {
      for (const s of opened) await s.close();
      await dropSchema(pool as NonNullable<typeof pool>, schema);
    },
  };
}

const BACKENDS: [string, () => Promise<Subject>, boolean][] = [
  ['SQLite', sqliteSubject, true],
  ['PostgreSQL', postgresSubject, PG_URL !== undefined],
];

for (const [backend, make, available] of BACKENDS) {
  describe.skipIf(!available)(`attacks on a sealed ${backend} store`, () => {
    let subject: Subject;
    afterEach(async () => subject?.close());

    /** Four rows of one thread, alike in every column but the payload; and one row each of two other threads. */
    async function setup(): Promise<{ thread: Checkpoint[]; other: Checkpoint; elsewhere: Checkpoint }> {
      subject = await make();
      const thread = [];
      for (let i = 0; i < 4; i++) thread.push(await subject.store.create({ namespace: 'app', sessionId: 't-1', name: 'step', payload: { step: i, secret: 'attack-marker' }, createdAt: at(1) }));
      const other = await subject.store.create({ namespace: 'app', sessionId: 't-2', name: 'step', payload: { other: true }, createdAt: at(1) });
      const elsewhere = await subject.store.create({ namespace: 'other', sessionId: 't-1', name: 'step', payload: { elsewhere: true }, createdAt: at(1) });
      return { thread, other, elsewhere };
    }

    /** `read` must fail with CheckpointIntegrityError, and the store must be as before it. */
    async function failsClosed(read: () => Promise<unknown>, what: string): Promise<Error> {
      const before = await subject.raw.snapshot();
      let error: unknown;
      try {
        await read();
      } catch (e) {
        error = e;
      }
      expect(isCheckpointIntegrityError(error), `${what}: ${String(error)}`).toBe(true);
      expect(await subject.raw.snapshot(), `${what}: the store must be unchanged`).toBe(before);
      return error as Error;
    }

    const payloadOf = async (id: number) => (await subject.raw.rows<{ payload_json: string; payload_sha256: string }>('select payload_json, payload_sha256 from checkpoints where id = ?', [id]))[0]!;
    /** Replaces the envelope text of row `id`, with its hash recomputed. */
    const rewrite = async (id: number, change: (envelope: string) => string) => {
      const text = change((await payloadOf(id)).payload_json);
      await subject.raw.run('update checkpoints set payload_json = ?, payload_sha256 = ? where id = ?', [text, sha256Hex(text), id]);
    };
    const field = (name: string, change: (value: string) => string) => (envelope: string) => envelope.replace(new RegExp(`"${name}":"([^"]*)"`), (_m, v: string) => `"${name}":"${change(v)}"`);
    const flip = (value: string, at: number) => value.slice(0, at) + (value[at] === 'A' ? 'B' : 'A') + value.slice(at + 1);

    it('stores no plaintext', async () => {
      await setup();
      expect(await subject.raw.snapshot()).not.toContain('attack-marker');
    });

    it('a payload edited with its hash recomputed: ciphertext bit-flipped, truncated, nonce changed, seal changed', async () => {
      const { thread } = await setup();
      const edits: [string, (e: string) => string][] = [
        ['a bit of the ciphertext', field('ct', (v) => flip(v, 10))],
        ['the ciphertext truncated', field('ct', (v) => v.slice(0, -6))],
        ['the nonce', field('iv', (v) => flip(v, 2))],
        ['the seal', field('seal', (v) => flip(v, 2))],
      ];
      for (const [i, [what, edit]] of edits.entries()) {
        await rewrite(thread[i]!.id, edit);
        await failsClosed(() => subject.store.get(thread[i]!.id, { namespace: 'app' }), what);
      }
      expect((await subject.store.verify()).failures.map((f) => f.id)).toEqual(thread.map((c) => c.id));
    });

    it('every other column edited: kind, name, created_at, source_ref, session_id, namespace, id, payload_sha256', async () => {
      const { thread, other } = await setup();
      const [a, b, c, d] = thread.map((cp) => cp.id) as [number, number, number, number];
      const cases: [string, string, unknown[], () => Promise<unknown>][] = [
        ['kind', 'update checkpoints set kind = ? where id = ?', ['edited', a], () => subject.store.get(a, { namespace: 'app' })],
        ['name', 'update checkpoints set name = ? where id = ?', ['edited', b], () => subject.store.get(b, { namespace: 'app' })],
        ['created_at', 'update checkpoints set created_at = ? where id = ?', [at(59), c], () => subject.store.get(c, { namespace: 'app' })],
        ['source_ref', 'update checkpoints set source_ref = ? where id = ?', ['forged', d], () => subject.store.get(d, { namespace: 'app' })],
      ];
      for (const [what, sql, params, read] of cases) {
        await subject.raw.run(sql, params);
        await failsClosed(read, what);
      }
      await subject.raw.run('update checkpoints set session_id = ? where id = ?', ['t-1', other.id]);
      await failsClosed(() => subject.store.history('t-1', { namespace: 'app' }), 'session_id (a row moved into another thread)');
      await subject.raw.run('update checkpoints set namespace = ? where id = ?', ['other', other.id]);
      await failsClosed(() => subject.store.get(other.id, { namespace: 'other' }), 'namespace');
      await subject.raw.run('update checkpoints set id = ? where id = ?', [9000, other.id]);
      await failsClosed(() => subject.store.get(9000, { namespace: 'other' }), 'id');
      const fresh = await subject.store.create({ namespace: 'app', sessionId: 't-3', payload: { n: 1 } });
      await subject.raw.run('update checkpoints set payload_sha256 = ? where id = ?', ['0'.repeat(64), fresh.id]);
      await failsClosed(() => subject.store.get(fresh.id, { namespace: 'app' }), 'payload_sha256');
    });

    it('a row or envelope copied to another thread, namespace or position; two rows swapped', async () => {
      const { thread, other, elsewhere } = await setup();
      const columns = 'namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref';
      // A row copied into another thread, into another namespace, and to another id of its own thread.
      await subject.raw.run(`insert into checkpoints (${columns}) select namespace, 't-2', kind, name, payload_json, payload_sha256, created_at, source_ref from checkpoints where id = ?`, [thread[0]!.id]);
      await failsClosed(() => subject.store.history('t-2', { namespace: 'app' }), 'a row copied into another thread');
      await subject.raw.run(`insert into checkpoints (${columns}) select 'other', session_id, kind, name, payload_json, payload_sha256, created_at, source_ref from checkpoints where id = ?`, [thread[1]!.id]);
      await failsClosed(() => subject.store.latest('t-1', { namespace: 'other' }), 'a row copied into another namespace');
      await subject.raw.run(`insert into checkpoints (id, ${columns}) select 8000, ${columns} from checkpoints where id = ?`, [thread[2]!.id]);
      await failsClosed(() => subject.store.get(8000, { namespace: 'app' }), 'a row copied to another id of its thread');
      await failsClosed(() => subject.store.latest('t-1', { namespace: 'app' }), 'latest over a copied row');
      // An envelope copied over another row of the same thread (alike in every other column).
      const [a, b] = [await payloadOf(thread[0]!.id), await payloadOf(thread[1]!.id)];
      await subject.raw.run('update checkpoints set payload_json = ?, payload_sha256 = ? where id = ?', [a.payload_json, a.payload_sha256, thread[1]!.id]);
      await failsClosed(() => subject.store.get(thread[1]!.id, { namespace: 'app' }), 'an envelope copied over a row of the same thread');
      // Two rows swapped (their envelopes exchanged).
      await subject.raw.run('update checkpoints set payload_json = ?, payload_sha256 = ? where id = ?', [b.payload_json, b.payload_sha256, thread[0]!.id]);
      await subject.raw.run('update checkpoints set payload_json = ?, payload_sha256 = ? where id = ?', [a.payload_json, a.payload_sha256, thread[1]!.id]);
      await failsClosed(() => subject.store.get(thread[0]!.id, { namespace: 'app' }), 'two rows swapped (the first)');
      await failsClosed(() => subject.store.get(thread[1]!.id, { namespace: 'app' }), 'two rows swapped (the second)');
      expect((await subject.store.get(other.id, { namespace: 'app' })).payload).toEqual({ other: true });
      expect((await subject.store.get(elsewhere.id, { namespace: 'other' })).payload).toEqual({ elsewhere: true });
    });

    it('the newest N rows deleted: latest, history and verify say so', async () => {
      const { thread } = await setup();
      await subject.raw.run('delete from checkpoints where id in (?, ?)', [thread[3]!.id, thread[2]!.id]);
      const error = await failsClosed(() => subject.store.latest('t-1', { namespace: 'app' }), 'latest after the newest two rows were deleted');
      expect(error.message).toMatch(/is not the newest row its head names/);
      await failsClosed(() => subject.store.history('t-1', { namespace: 'app' }), 'history after the newest two rows were deleted');
      expect((await subject.store.verify()).seal?.problems.map((p) => p.reason).join(' | ')).toMatch(/missing/);
      // Every row of the thread deleted, its head kept.
      await subject.raw.run('delete from checkpoints where session_id = ?', ['t-1']);
      await failsClosed(() => subject.store.latest('t-1', { namespace: 'app' }), 'latest after every row of a thread was deleted');
    });

    it('one thread restored from an older backup: without its head, latest fails; with its head, verify finds it', async () => {
      const { thread } = await setup();
      const backup = await subject.backup();
      await subject.store.create({ namespace: 'app', sessionId: 't-1', name: 'step', payload: { step: 4 }, createdAt: at(2) });
      await subject.store.create({ namespace: 'app', sessionId: 't-2', payload: { later: true } });
      // Only the rows put back: the head still names the newer row.
      await subject.raw.run('delete from checkpoints where session_id = ? and created_at = ?', ['t-1', at(2)]);
      await failsClosed(() => subject.store.latest('t-1', { namespace: 'app' }), 'the rows of a thread rolled back without its head');
      await subject.store.checkSealHead(await subject.store.sealHead());
      // Rows and head put back: the thread agrees with itself; the store head does not.
      await backup.restoreSession('app', 't-1');
      expect((await subject.store.latest('t-1', { namespace: 'app' }))?.id).toBe(thread[3]!.id);
      const report = await subject.store.verify();
      expect(report.failures).toEqual([]);
      expect(report.seal?.problems.map((p) => p.reason)).toEqual([expect.stringMatching(/the store head does not match the set of session heads/)]);
    });

    it('plaintext injected into the encrypted store is refused', async () => {
      const { thread } = await setup();
      const text = '{"injected":true}';
      await subject.raw.run('update checkpoints set payload_json = ?, payload_sha256 = ? where id = ?', [text, sha256Hex(text), thread[1]!.id]);
      await failsClosed(() => subject.store.get(thread[1]!.id, { namespace: 'app' }), 'a plaintext payload with its hash');
      await subject.raw.run(
        'insert into checkpoints (namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref) values (?, ?, ?, ?, ?, ?, ?, ?)',
        ['app', 't-9', 'manual', 'n', text, sha256Hex(text), at(30), null],
      );
      await failsClosed(() => subject.store.latest('t-9', { namespace: 'app' }), 'a plaintext row inserted as a thread of its own');
    });

    it('the wrong key: reads and writes fail, naming the key id and never the key', async () => {
      const { thread } = await setup();
      const impostor = new Keyring([{ id: 'k1', secret: new Uint8Array(32).fill(8) }]);
      const wrong = await subject.reopen({ keys: impostor });
      const error = await failsClosed(() => wrong.get(thread[0]!.id, { namespace: 'app' }), 'a read with the wrong key under the right id');
      expect(error.message).toMatch(/under key 'k1'/);
      expect(error.message).not.toContain(Buffer.alloc(32, 8).toString('base64'));
      await failsClosed(() => wrong.create({ namespace: 'app', sessionId: 't-1', payload: { n: 1 } }), 'a write with the wrong key');
      const unknown = await subject.reopen({ keys: Keyring.generate('k2') });
      expect((await failsClosed(() => unknown.get(thread[0]!.id, { namespace: 'app' }), 'a read with another key id')).message).toMatch(/key 'k1', which the keyring does not hold/);
    });

    it.skipIf(process.platform === 'win32')('a key file with loose permissions never opens the store', async () => {
      subject = await make();
      const dir = tempDir('sc-attack-keys-');
      try {
        const path = dir.file('store.keys');
        await writeKeyFile(path, keys);
        chmodSync(path, 0o644);
        let error: unknown;
        try {
          await subject.reopen({ keys: await loadKeyFile(path) });
        } catch (e) {
          error = e;
        }
        expect(isStoreSecurityError(error), String(error)).toBe(true);
        expect(String(error)).toContain(path);
      } finally {
        dir.remove();
      }
    });
  });
}
