/**
 * Idle expiry (issue 37 item 4) with real processes, on one SQLite file and one PostgreSQL
 * schema: a writer process keeps writing to some sessions while sweeper processes delete idle ones
 * and are killed with SIGKILL at random moments. Afterwards no session is half deleted (its seeded
 * rows are all there or all gone), no acknowledged write is gone, a pinned session and the sessions
 * written before the sweep are whole, and a last sweep removes exactly the idle rest.
 * Children run the built package (dist), as applications do.
 */
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
      // idle-*: never written again; racing-*: the writer starts on them while the sweeps run;
      // woken-*: written once more before any sweep starts; kept-*: pinned.
      const seeded = new Map<string, number[]>();
      const groups = { idle: 120, racing: 12, woken: 6, kept: 2 };
      for (const [group, n] of Object.entries(groups)) {
        for (let k = 0; k < n; k++) {
          const sessionId = `${group}-${k}`;
          const ids: number[] = [];
          for (let r = 0; r < 3; r++) ids.push((await store.create({ namespace: NS, sessionId, createdAt: OLD, payload: { r, pad: 'p'.repeat(200) } })).id);
          seeded.set(sessionId, ids);
        }
      }
      for (let k = 0; k < groups.kept; k++) await store.pin(`kept-${k}`, { namespace: NS });
      const preAcked: { sessionId: string; id: number }[] = [];
      for (let k = 0; k < groups.woken; k++) {
        const cp = await store.create({ namespace: NS, sessionId: `woken-${k}`, payload: { woken: k } });
        preAcked.push({ sessionId: cp.sessionId, id: cp.id });
      }

      const writer = startChild('idle-writer.mjs', [spec, NS, [...Array(groups.racing).keys()].map((k) => `racing-${k}`).concat(['woken-0']).join(',')]);
      await writer.waitForLine('ready');
      let completed = 0;
      for (let round = 0; round < 6; round++) {
        const sweeper = startChild('idle-sweep.mjs', [spec, NS, '1d']);
        await sweeper.waitForLine('ready');
        await sleep(Math.random() * 150);
        sweeper.process.kill('SIGKILL');
        const result = await sweeper.done;
        if (result.signal !== 'SIGKILL') {
          expect(result.code, result.stderr).toBe(0);
          completed++;
        }
      }
      writer.process.kill('SIGKILL');
      const written = [...preAcked, ...acks(await writer.done)];
      expect(written.length).toBeGreaterThan(groups.woken);

      // Every session's seeded rows are all there or all gone; no acknowledged write is gone.
      for (const [sessionId, ids] of seeded) {
        const present = await idsOf(store, sessionId);
        const kept = ids.filter((id) => present.has(id)).length;
        expect([0, ids.length], `${sessionId}: ${kept} of ${ids.length} seeded rows left`).toContain(kept);
      }
      for (const { sessionId, id } of written) expect((await idsOf(store, sessionId)).has(id), `acknowledged ${sessionId}/${id}`).toBe(true);
      for (let k = 0; k < groups.woken; k++) expect((await idsOf(store, `woken-${k}`)).size).toBeGreaterThanOrEqual(4);
      for (let k = 0; k < groups.kept; k++) expect((await idsOf(store, `kept-${k}`)).size).toBe(3);
      expect((await store.verify()).failures).toEqual([]);

      // A last sweep, with the writer gone, takes exactly the idle rest and reports it.
      const last = await store.expireIdle({ namespace: NS, idleFor: '1d', apply: true });
      expect(last.pinned.map((p) => p.sessionId).sort()).toEqual(['kept-0', 'kept-1']);
      const left = new Set((await store.sessions({ namespace: NS })).map((s) => s.sessionId));
      for (let k = 0; k < groups.idle; k++) expect(left.has(`idle-${k}`)).toBe(false);
      for (let k = 0; k < groups.woken; k++) expect(left.has(`woken-${k}`)).toBe(true);
      for (let k = 0; k < groups.kept; k++) expect(left.has(`kept-${k}`)).toBe(true);
      const writtenRacing = new Set(written.map((w) => w.sessionId));
      for (let k = 0; k < groups.racing; k++) expect(left.has(`racing-${k}`)).toBe(writtenRacing.has(`racing-${k}`));
      for (const e of last.expired) expect(e.deleted.length).toBe(e.rows);
      console.info(`${backend}: 6 sweepers killed at random (${completed} finished first), ${written.length} writes acknowledged, last sweep expired ${last.expired.length}`);
      await store.close();
    }, 180_000);
  });
}
