/**
 * A sealed PostgreSQL store draws the next row's id while its create holds the store head (one
 * round trip less per create). Rows written in between by transactions (another path of the same
 * store, or another process) draw higher ids; a create that then used the id drawn before them
 * would have a lower id than an older row of the same second, and its session head would name the
 * wrong newest row (`latest` and `verify` failed). The drawn id is used only when nothing was
 * written since.
 */
import { CheckpointStore, Keyring } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore, openSqliteStore } from './index.js';
import { dropSchema, PG_URL, testPool, uniqueSchema } from './test-support/postgres.js';
import { tempDir } from './test-support/temp-dir.js';

const keys = new Keyring([{ id: 'k1', secret: new Uint8Array(32).fill(9) }]);
const SECOND = '2026-08-08T07:00:00Z';
const pool = PG_URL ? testPool(2) : undefined;
const schemas: string[] = [];
const dirs: { remove(): void }[] = [];
afterAll(async () => {
  for (const dir of dirs) dir.remove();
  if (pool) for (const schema of schemas) await dropSchema(pool, schema);
  await pool?.end();
});

const subjects: { name: string; available: boolean; open: () => Promise<CheckpointStore[]> }[] = [
  {
    name: 'sqlite',
    available: true,
    open: async () => {
      const dir = tempDir('sc-sealed-ids-');
      dirs.push(dir);
      const file = dir.file('store.sqlite');
      const first = await openSqliteStore(file, { keys });
      return [first, await openSqliteStore(file, { keys, create: false })];
    },
  },
  {
    name: 'postgres',
    available: PG_URL !== undefined,
    open: async () => {
      const schema = uniqueSchema('sc_sealed_ids');
      schemas.push(schema);
      const first = await openPostgresStore(PG_URL ?? '', { schema, keys, poolSize: 2 });
      return [first, await openPostgresStore(PG_URL ?? '', { schema, keys, poolSize: 2, create: false })];
    },
  },
];

describe.each(subjects)('sealed ids on $name', ({ available, open }) => {
  it.skipIf(!available)('creates, transactions and a second writer in one second: latest is the last row, verify holds', async () => {
    const [store, other] = (await open()) as [CheckpointStore, CheckpointStore];
    try {
      const at = { namespace: 'n', sessionId: 's', createdAt: SECOND };
      await store.create({ ...at, payload: { step: 1 } });
      await store.transaction((tx) => tx.create({ ...at, payload: { step: 2 } }));
      const third = await store.create({ ...at, payload: { step: 3 } });
      expect((await store.latest('s', { namespace: 'n' }))?.id).toBe(third.id);
      // Another writer's create in between: this store's next create must still be the newest.
      await other.create({ ...at, payload: { step: 4 } });
      await store.transaction(async () => undefined);
      const fifth = await store.create({ ...at, payload: { step: 5 } });
      expect((await store.latest('s', { namespace: 'n' }))?.payload).toEqual({ step: 5 });
      expect((await other.latest('s', { namespace: 'n' }))?.id).toBe(fifth.id);
      const steps = (await store.list({ namespace: 'n', sessionId: 's' })).map((r) => (r.payload as { step: number }).step);
      expect(steps).toEqual([5, 4, 3, 2, 1]);
      const report = await store.verify();
      expect(report.failures).toEqual([]);
      expect(report.seal?.problems).toEqual([]);
    } finally {
      await store.close();
      await other.close();
    }
  });
});
