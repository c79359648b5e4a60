/**
 * Idle expiry (issue 37 item 4) with real processes, on one SQLite file and one PostgreSQL
 * schema: a writer process keeps writing to some sessions while sweeper processes delete idle ones
 * and are killed with SIGKILL at random moments. Afterwards no session is half deleted (its seeded
 * rows are all there or all gone), no acknowledged write is gone, a pinned session and the sessions
 * written before the sweep are whole, and a last sweep removes exactly the idle rest.
 * Children run the built package (dist), as applications do.
 */
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CheckpointStore } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore, openSqliteStore } from './index.js';
import { startChild, type ChildResult } from './test-support/children.js';
import { dropSchema, PG_URL, testPool, uniqueSchema } from './test-support/postgres.js';
import { tempDir } from './test-support/temp-dir.js';

const dir = tempDir('sc-idle-proc-');
const pool = PG_URL ? testPool(2) : undefined;
const schemas: string[] = [];
afterAll(async () => {
  dir.remove();
  for (const schema of schemas) await dropSchema(pool as NonNullable<typeof pool>, schema);
  await pool?.end();
});

const NS = 'idle';
const OLD = '2020-01-01T00:00:00Z';

/** `ack <session> <id>` lines of a writer (a line cut by the kill is dropped). */
function acks(result: ChildResult): { sessionId: string; id: number }[] {
  const lines = result.stdout.split('\n');
  lines.pop();
  return lines.filter((l) => l.startsWith('ack ')).map((l) => {
    const [, sessionId, id] = l.split(' ');
    return { sessionId: sessionId as string, id: Number(id) };
  });
}

async function idsOf(store: CheckpointStore, sessionId: string): Promise<Set<number>> {
  return new Set((await store.history(sessionId, { namespace: NS, limit: 1000 })).map((cp) => cp.id));
}

const targets: [string, boolean, () => Promise<{ spec: string; open: () => Promise<CheckpointStore> }>][] = [
  ['SQLite', true, async () => {
    const path = dir.file(`idle-${Math.random().toString(36).slice(2)}.sqlite`);
    return { spec: `sqlite:${path}`, open: () => openSqliteStore(path) };
  }],
  ['PostgreSQL', PG_URL !== undefined, async () => {
    const schema = uniqueSchema('sc_idle_proc');
    schemas.push(schema);
    return { spec: `pg:${schema}`, open: () => openPostgresStore(pool as NonNullable<typeof pool>, { schema }) };
  }],
];

for (const [backend, available, target] of targets) {
  describe.skipIf(!available)(`idle expiry on ${backend} with real processes`, () => {
    it('sweepers killed with SIGKILL beside a writer never delete a session half-way nor a written one', async () => {
      const { spec, open } = await target();
      const store = await open();
      const seeded = new Map<string, number[]>();
      const seed = async (sessionId: string): Promise<void> => {
        const ids: number[] = [];
        for (let r = 0; r < 3; r++) ids.push((await store.create({ namespace: NS, sessionId, createdAt: OLD, payload: { r, pad: 'p'.repeat(200) } })).id);
        seeded.set(sessionId, ids);
      };
      // kept-*: pinned; woken-*: written once more before any sweep.
      for (const sessionId of ['kept-0', 'kept-1', 'woken-0', 'woken-1']) await seed(sessionId);
      for (const sessionId of ['kept-0', 'kept-1']) await store.pin(sessionId, { namespace: NS });
      const written: { sessionId: string; id: number }[] = [];
      for (const sessionId of ['woken-0', 'woken-1']) written.push({ sessionId, id: (await store.create({ namespace: NS, sessionId, payload: { woken: true } })).id });

      // Each round: 80 idle sessions, of which every fourth gets its first write from the writer
      // process while a sweeper process runs (before or after the sweep reaches it, by chance);
      // the sweeper is killed at a random moment in odd rounds and left to finish in even ones.
      let finished = 0;
      for (let round = 0; round < 6; round++) {
        const racing: string[] = [];
        for (let k = 0; k < 80; k++) {
          const sessionId = `r${round}-${String(k).padStart(3, '0')}`;
          await seed(sessionId);
          if (k % 4 === 1) racing.push(sessionId);
        }
        // The writer is up first and starts writing when the sweeper starts its sweep.
        const go = dir.file(`go-${round}-${Math.random().toString(36).slice(2)}`);
        const writer = startChild('idle-writer.mjs', [spec, NS, racing.join(','), go]);
        await writer.waitForLine('ready');
        const sweeper = startChild('idle-sweep.mjs', [spec, NS, '1d']);
        await sweeper.waitForLine('ready');
        writeFileSync(go, '');
        if (round % 2 === 1) {
          await sleep(Math.random() * 400);
          sweeper.process.kill('SIGKILL');
        }
        const swept = await sweeper.done;
        if (swept.signal !== 'SIGKILL') {
          expect(swept.code, swept.stderr).toBe(0);
          finished++;
        }
        const wrote = await writer.done;
        expect(wrote.code, wrote.stderr).toBe(0);
        written.push(...acks(wrote));
      }
      expect(finished).toBeGreaterThanOrEqual(3);

      // Every session's seeded rows are all there or all gone; no acknowledged write is gone.
      for (const [sessionId, ids] of seeded) {
        const present = await idsOf(store, sessionId);
        const kept = ids.filter((id) => present.has(id)).length;
        expect([0, ids.length], `${sessionId}: ${kept} of ${ids.length} seeded rows left`).toContain(kept);
      }
      const present = new Map<string, Set<number>>();
      for (const sessionId of seeded.keys()) present.set(sessionId, await idsOf(store, sessionId));
      for (const { sessionId, id } of written) expect((await idsOf(store, sessionId)).has(id), `acknowledged ${sessionId}/${id}`).toBe(true);
      for (const sessionId of ['kept-0', 'kept-1']) expect((await idsOf(store, sessionId)).size).toBe(3);
      for (const sessionId of ['woken-0', 'woken-1']) expect((await idsOf(store, sessionId)).size).toBe(4);
      expect((await store.verify()).failures).toEqual([]);

      // A last sweep, with the writers gone, takes exactly the idle rest and reports it.
      const last = await store.expireIdle({ namespace: NS, idleFor: '1d', apply: true });
      expect(last.pinned.map((p) => p.sessionId)).toEqual(['kept-0', 'kept-1']);
      const writtenTo = new Set(written.map((w) => w.sessionId));
      const left = new Set((await store.sessions({ namespace: NS })).map((s) => s.sessionId));
      for (const sessionId of seeded.keys()) expect(left.has(sessionId), sessionId).toBe(writtenTo.has(sessionId) || sessionId.startsWith('kept-'));
      for (const e of last.expired) expect(e.deleted.length).toBe(e.rows);
      const racingWritten = [...writtenTo].filter((sessionId) => sessionId.startsWith('r'));
      const whole = racingWritten.filter((sessionId) => (seeded.get(sessionId) ?? []).some((id) => present.get(sessionId)?.has(id))).length;
      console.info(`${backend}: 6 sweeps (${finished} finished, the rest killed), ${written.length} writes acknowledged to ${racingWritten.length} racing sessions (${whole} of them kept whole, the others expired before their write), last sweep expired ${last.expired.length}`);
      await store.close();
    }, 240_000);
  });
}
