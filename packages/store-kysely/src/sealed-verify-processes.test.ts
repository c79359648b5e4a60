/**
 * `verify()` on a sealed store while another process writes: the rows are scanned before the heads
 * are read, so a write in between looks like a chain out of step with its head. Verify re-reads
 * such a session with its head before and after and reports only what is still there; these runs
 * check that, with a real writer child on a SQLite file and on a PostgreSQL schema, no verify
 * reports damage that is not there, and that rows deleted while the writer runs are reported.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { generateKeyFile, type CheckpointStore, type Keyring, type VerifyReport } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore, openSqliteStore } from './index.js';
import { startChild } from './test-support/children.js';
import { dropSchema, PG_URL, testPool, uniqueSchema } from './test-support/postgres.js';
import { rawPostgres, rawSqlite, type RawStore } from './test-support/raw-store.js';
import { tempDir } from './test-support/temp-dir.js';

const dir = tempDir('sc-sealed-verify-');
const pool = PG_URL ? testPool(3) : undefined;
const schemas: string[] = [];
afterAll(async () => {
  dir.remove();
  for (const schema of schemas) await dropSchema(pool as NonNullable<typeof pool>, schema);
  await pool?.end();
});

/** The part of a verify problem that says a session could not be checked because it kept changing: not damage. */
const BUSY = 'busy, not damage';

/** The problems of a report that claim damage (a busy session is not one). */
const damage = (report: VerifyReport) => (report.seal?.problems ?? []).filter((p) => !p.reason.startsWith(BUSY));

const targets: [string, boolean, () => { spec: string; open: (keys: Keyring) => Promise<CheckpointStore>; raw: () => RawStore }][] = [
  ['SQLite', true, () => {
    const path = dir.file(`store-${Math.random().toString(36).slice(2)}.sqlite`);
    return { spec: `sqlite:${path}`, open: (keys) => openSqliteStore(path, { keys }), raw: () => rawSqlite(path) };
  }],
  ['PostgreSQL', PG_URL !== undefined, () => {
    const schema = uniqueSchema('sc_sealed_verify');
    schemas.push(schema);
    const p = pool as NonNullable<typeof pool>;
    return { spec: `pg:${schema}`, open: (keys) => openPostgresStore(p, { schema, keys }), raw: () => rawPostgres(p, schema) };
  }],
];

for (const [backend, available, target] of targets) {
  describe.skipIf(!available)(`verify on a sealed ${backend} store beside a writer process`, () => {
    it('reports no damage while the writer writes (creates, thread puts, retention), and still reports rows deleted meanwhile', async () => {
      const { spec, open, raw } = target();
      const keyFile = dir.file(`verify-${Math.random().toString(36).slice(2)}.keys`);
      const keys = await generateKeyFile(keyFile);
      const store = await open(keys);
      const quiet: number[] = [];
      for (let i = 0; i < 5; i++) quiet.push((await store.create({ namespace: 'app', sessionId: 'quiet', payload: { i } })).id);
      // A long session the writer keeps writing to: re-reading it takes longer than a write, so
      // verify must take its settled read holding the store head.
      await store.transaction(async (tx) => {
        for (let i = 0; i < 1500; i++) await tx.create({ namespace: 'app', sessionId: 'shared', payload: { i, seed: true } });
      });
      const writer = startChild('sealed-loop.mjs', [spec, keyFile, 'write', 'app', 'w']);
      const tamperer = raw();
      try {
        await writer.waitForLine('ready');
        while (writer.stdout().split('\n').length < 6) await sleep(10);
        // Verify runs until at least 8 of its runs had writes commit while they ran (the store
        // head moved between the reads before and after): the writer never stops between writes.
        let overlapped = 0;
        let rounds = 0;
        let busy = 0;
        for (; overlapped < 8 && rounds < 400; rounds++) {
          const before = await store.sealHead();
          const report = await store.verify(rounds % 2 === 0 ? {} : { namespace: 'app' });
          if ((await store.sealHead()) !== before) overlapped++;
          expect(report.failures).toEqual([]);
          // No damage. A busy report is allowed: the held read waits for the writer's lock, and on
          // a loaded machine that wait can pass the busy timeout (no verdict may depend on speed);
          // the store then says "busy, not damage", which is true.
          expect(damage(report)).toEqual([]);
          if ((report.seal?.problems ?? []).length > 0) busy++;
        }
        expect(overlapped).toBe(8);
        // The held read still settles the busy session: some runs end with nothing to report.
        expect(busy).toBeLessThan(rounds);
        // A row cut out of the middle of a session, while the writer keeps writing, is reported.
        await tamperer.run('delete from checkpoints where id = ?', [quiet[2]]);
        for (const options of [{}, { namespace: 'app' }]) {
          const report = await store.verify(options);
          expect(damage(report).filter((p) => p.sessionId === 'quiet').length).toBeGreaterThan(0);
          expect(damage(report).filter((p) => p.sessionId !== 'quiet')).toEqual([]);
        }
      } finally {
        writer.process.kill('SIGKILL');
        await writer.done;
        await tamperer.close();
        await store.close();
      }
    }, 300_000);
  });
}
