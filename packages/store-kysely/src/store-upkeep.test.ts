/**
 * Store upkeep (issue 37 items 3-4) on SQLite and PostgreSQL: the SQL `sessionStats` agrees with
 * the base class's scan over the same rows (the memory adapter), `stats` sorts by bytes, pins keep
 * sessions from idle expiry, a dry run changes nothing, and a sealed store stays whole after
 * sessions expire (chains and heads follow the deletions).
 */
import { CheckpointStore, Keyring, MemoryAdapter } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore, openSqliteStore } from './index.js';
import { dropSchema, PG_URL, testPool, uniqueSchema } from './test-support/postgres.js';
import { tempDir } from './test-support/temp-dir.js';

const dir = tempDir('sc-upkeep-');
const pool = PG_URL ? testPool(2) : undefined;
const schemas: string[] = [];
afterAll(async () => {
  dir.remove();
  for (const schema of schemas) await dropSchema(pool as NonNullable<typeof pool>, schema);
  await pool?.end();
});

const keys = new Keyring([{ id: 'k1', secret: new Uint8Array(32).fill(9) }]);
const NOW = new Date('2026-06-01T00:00:00Z');

const targets: [string, boolean, (options?: { keys?: Keyring }) => Promise<CheckpointStore>][] = [
  ['SQLite', true, (options = {}) => openSqliteStore(dir.file(`u-${Math.random().toString(36).slice(2)}.sqlite`), options)],
  ['PostgreSQL', PG_URL !== undefined, (options = {}) => {
    const schema = uniqueSchema('sc_upkeep');
    schemas.push(schema);
    return openPostgresStore(pool as NonNullable<typeof pool>, { schema, ...options });
  }],
];

/** The same rows into any store: three namespaces, sessions of different ages and sizes, non-ASCII text. */
async function fill(store: CheckpointStore): Promise<void> {
  const rows: [string, string, string, object][] = [
    ['app', 'old', '2026-01-01T00:00:00Z', { t: 'é'.repeat(100) }],
    ['app', 'old', '2026-01-02T00:00:00Z', { t: 'x' }],
    ['app', 'new', '2026-05-31T00:00:00Z', { t: '𝄞'.repeat(50) }],
    ['app', 'pinned', '2026-01-05T00:00:00Z', { t: 'p' }],
    ['langgraph', 'thread-1', '2026-02-01T00:00:00Z', { t: 'y'.repeat(3000) }],
    ['langgraph', 'thread-1', '2026-02-02T00:00:00Z', { t: 'z'.repeat(10) }],
    ['other', 'x', '2026-05-30T12:00:00Z', { t: 1 }],
  ];
  for (const [namespace, sessionId, createdAt, payload] of rows) await store.create({ namespace, sessionId, createdAt, payload });
}

for (const [backend, available, open] of targets) {
  describe.skipIf(!available)(`store upkeep on ${backend}`, () => {
    it('stats: the SQL sums equal the base class scan, largest first', async () => {
      const store = await open();
      const memory = new CheckpointStore(new MemoryAdapter());
      await fill(store);
      await fill(memory);
      const sql = await store.stats();
      const scanned = await memory.stats();
      expect(sql.namespaces).toEqual(scanned.namespaces);
      expect(sql.totals).toEqual(scanned.totals);
      expect(sql.namespaces.map((ns) => ns.namespace)).toEqual(['langgraph', 'app', 'other']);
      expect(sql.namespaces[1]?.sessions.map((s) => s.sessionId)).toEqual(['old', 'new', 'pinned']);
      expect(sql.namespaces[1]?.sessions[0]).toMatchObject({ rows: 2, oldest: '2026-01-01T00:00:00Z', newest: '2026-01-02T00:00:00Z', pinned: false });
      expect(sql.storage?.kind).toBe(backend === 'SQLite' ? 'sqlite' : 'postgres');
      expect((await store.stats({ namespace: 'other' })).namespaces.map((ns) => ns.namespace)).toEqual(['other']);
      await store.close();
    });

    it('expireIdle: a dry run changes nothing; apply deletes whole idle sessions except pinned ones', async () => {
      const store = await open();
      await fill(store);
      expect(await store.pin('pinned', { namespace: 'app' })).toBe(false);
      expect(await store.pin('pinned', { namespace: 'app' })).toBe(true);
      const before = await store.stats();
      const dry = await store.expireIdle({ idleFor: '30d', now: NOW });
      expect(dry.cutoff).toBe('2026-05-02T00:00:00Z');
      expect(dry.expired.map((e) => `${e.namespace}/${e.sessionId}`)).toEqual(['app/old', 'langgraph/thread-1']);
      expect(dry.pinned.map((p) => p.sessionId)).toEqual(['pinned']);
      expect(await store.stats()).toEqual(before);
      const applied = await store.expireIdle({ idleFor: '30d', now: NOW, apply: true });
      expect(applied.expired.map((e) => e.deleted.length)).toEqual([2, 2]);
      expect(applied.deletedRows).toBe(4);
      expect(applied.bytes).toBe(dry.bytes);
      const left = (await store.stats()).namespaces.flatMap((ns) => ns.sessions.map((s) => `${ns.namespace}/${s.sessionId}`)).sort();
      expect(left).toEqual(['app/new', 'app/pinned', 'other/x']);
      expect(await store.unpin('pinned', { namespace: 'app' })).toBe(true);
      const one = await store.expireIdle({ idleFor: '30d', now: NOW, namespace: 'app', apply: true });
      expect(one.expired.map((e) => e.sessionId)).toEqual(['pinned']);
      await expect(store.expireIdle({ idleFor: '30 days', now: NOW })).rejects.toThrow(/duration/);
      await store.close();
    });

    it('a sealed store: expired sessions take their chains and heads with them, and verify stays clean', async () => {
      const store = await open({ keys });
      await fill(store);
      const result = await store.expireIdle({ idleFor: '30d', now: NOW, apply: true });
      expect(result.expired.map((e) => e.sessionId)).toEqual(['old', 'pinned', 'thread-1']);
      const report = await store.verify();
      expect(report.failures).toEqual([]);
      expect(report.seal?.problems).toEqual([]);
      await store.create({ namespace: 'app', sessionId: 'old', payload: { again: true } });
      expect((await store.verify()).seal?.problems).toEqual([]);
      await store.close();
    });

    it('a sealed store opened without its keys: a dry run answers, apply is refused and deletes nothing', async () => {
      const sealed = await open({ keys });
      await fill(sealed);
      const plain = new CheckpointStore(sealed.adapter);
      const before = await plain.stats();
      expect((await plain.expireIdle({ idleFor: '30d', now: NOW })).expired.length).toBe(3);
      await expect(plain.expireIdle({ idleFor: '30d', now: NOW, apply: true })).rejects.toThrow(/the store is sealed: open it with its keys/);
      expect(await plain.stats()).toEqual(before);
      await sealed.close();
    });
  });
}

describe.skipIf(PG_URL === undefined)('idle expiry on PostgreSQL beside an open write transaction', () => {
  it('waits for the writer (lockWrites), then sees its row and keeps the session whole', async () => {
    const schema = uniqueSchema('sc_upkeep_lock');
    schemas.push(schema);
    const own = testPool(3);
    const watch = testPool(1);
    const store = await openPostgresStore(own, { schema });
    try {
      for (let i = 0; i < 3; i++) await store.create({ namespace: 'app', sessionId: 's', createdAt: '2026-01-01T00:00:00Z', payload: { i } });
      // A writer's transaction adds a row to the session and stays open.
      let release: () => void = () => undefined;
      const gate = new Promise<void>((r) => (release = r));
      let inserted: () => void = () => undefined;
      const insertedSignal = new Promise<void>((r) => (inserted = r));
      const writer = store.transaction(async (tx) => {
        await tx.create({ namespace: 'app', sessionId: 's', createdAt: '2026-01-03T00:00:00Z', payload: { late: true } });
        inserted();
        await gate;
      });
      await insertedSignal;
      // Seen from far later, the session is idle. The sweep must wait for the writer's commit.
      const sweep = store.expireIdle({ idleFor: '30d', now: new Date('2030-01-01T00:00:00Z'), apply: true });
      let settled = false;
      void sweep.then(() => (settled = true), () => (settled = true));
      // Release the writer once the sweep waits on a lock (or has finished without waiting, which
      // a sweep without lockWrites does, deleting the three rows it saw).
      for (;;) {
        const { rows } = await watch.query<{ n: string }>('select count(*) as n from pg_locks where not granted');
        if (Number(rows[0]?.n) > 0 || settled) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      release();
      await writer;
      const result = await sweep;
      expect(result.skipped).toEqual([{ namespace: 'app', sessionId: 's', reason: 'written' }]);
      expect(result.expired).toEqual([]);
      expect((await store.history('s', { namespace: 'app' })).length).toBe(4);
    } finally {
      await store.close();
      await own.end().catch(() => undefined);
      await watch.end();
    }
  });
});
