/**
 * Sealed stores with real processes (issue 36, items 3 and 5): writers on one SQLite file and on
 * one PostgreSQL schema killed with SIGKILL mid-write, and a key rotation killed at random points
 * and resumed while a writer keeps writing. Afterwards every chain and head holds, and every
 * acknowledged write is there. Children run the built package (dist), as applications do.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { generateKeyFile, Keyring, writeKeyFile, type CheckpointStore } from '@session-checkpoint/core';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore, openSqliteStore } from './index.js';
import { startChild, type ChildResult } from './test-support/children.js';
import { dropSchema, PG_URL, testPool, uniqueSchema } from './test-support/postgres.js';
import { tempDir } from './test-support/temp-dir.js';

const dir = tempDir('sc-sealed-proc-');
const pool = PG_URL ? testPool(2) : undefined;
const schemas: string[] = [];
afterAll(async () => {
  dir.remove();
  for (const schema of schemas) await dropSchema(pool as NonNullable<typeof pool>, schema);
  await pool?.end();
});

/** The ids a writer acknowledged: lines `create <id>` / `put <id>` (a line cut by the kill is dropped). */
function acknowledged(result: ChildResult): { creates: number[]; puts: number[] } {
  const lines = result.stdout.split('\n');
  lines.pop();
  const ids = (kind: string) => lines.filter((l) => l.startsWith(`${kind} `)).map((l) => Number(l.slice(kind.length + 1)));
  return { creates: ids('create'), puts: ids('put') };
}

/** Every chain and head holds, and every acknowledged create is there (puts may have been retired by retention). */
async function holds(store: CheckpointStore, namespace: string, creates: readonly number[]): Promise<void> {
  const report = await store.verify();
  expect(report.failures).toEqual([]);
  expect(report.seal?.problems).toEqual([]);
  for (const id of creates) expect((await store.get(id, { namespace })).id).toBe(id);
}

const targets: [string, boolean, () => Promise<{ spec: string; open: (keys: Keyring) => Promise<CheckpointStore> }>][] = [
  ['SQLite', true, async () => {
    const path = dir.file(`store-${Math.random().toString(36).slice(2)}.sqlite`);
    return { spec: `sqlite:${path}`, open: (keys) => openSqliteStore(path, { keys }) };
  }],
  ['PostgreSQL', PG_URL !== undefined, async () => {
    const schema = uniqueSchema('sc_sealed_proc');
    schemas.push(schema);
    return { spec: `pg:${schema}`, open: (keys) => openPostgresStore(pool as NonNullable<typeof pool>, { schema, keys }) };
  }],
];

for (const [backend, available, target] of targets) {
  describe.skipIf(!available)(`a sealed ${backend} store with real processes`, () => {
    it('writers killed with SIGKILL at random moments, beside others writing, leave every chain and head valid and lose nothing acknowledged', async () => {
      const { spec, open } = await target();
      const keyFile = dir.file(`kill-${Math.random().toString(36).slice(2)}.keys`);
      const keys = await generateKeyFile(keyFile);
      // The store and its first head exist before the writers race.
      const first = await open(keys);
      await first.create({ namespace: 'app', sessionId: 'shared', payload: { start: true } });
      await first.close();
      const creates: number[] = [];
      const steady = startChild('sealed-loop.mjs', [spec, keyFile, 'write', 'app', 'steady']);
      await steady.waitForLine('ready');
      for (let round = 0; round < 12; round++) {
        const victim = startChild('sealed-loop.mjs', [spec, keyFile, 'write', 'app', `victim-${round % 3}`]);
        if (round % 3 !== 0) await victim.waitForLine('ready');
        await sleep(30 + Math.random() * 150);
        victim.process.kill('SIGKILL');
        const result = await victim.done;
        expect(result.signal === 'SIGKILL' || result.code === 0, result.stderr).toBe(true);
        creates.push(...acknowledged(result).creates);
      }
      steady.process.kill('SIGKILL');
      const steadyResult = await steady.done;
      expect(steadyResult.signal, steadyResult.stderr).toBe('SIGKILL');
      creates.push(...acknowledged(steadyResult).creates);
      expect(creates.length).toBeGreaterThan(20);
      const store = await open(keys);
      try {
        await holds(store, 'app', creates);
      } finally {
        await store.close();
      }
    }, 300_000);

    it('a key rotation killed at random points and run again, while a writer keeps writing, ends with everything under the new key', async () => {
      const { spec, open } = await target();
      const oldKeys = Keyring.generate('old');
      const newKeys = Keyring.generate('new');
      const rotatingFile = dir.file(`rotating-${Math.random().toString(36).slice(2)}.keys`);
      await writeKeyFile(rotatingFile, oldKeys.with(newKeys));
      const before = await open(oldKeys);
      const creates: number[] = [];
      await before.transaction(async (tx) => {
        for (let i = 0; i < 400; i++) creates.push((await tx.create({ namespace: 'app', sessionId: `s-${i % 4}`, payload: { i, before: 'rotation' } })).id);
      });
      await before.close();
      // The writer has the rotated keyring (old keys read, the new one writes), as the docs ask.
      const writer = startChild('sealed-loop.mjs', [spec, rotatingFile, 'write', 'app', 'writer']);
      await writer.waitForLine('ready');
      let cutShort = 0;
      for (let kill = 0; kill < 4; kill++) {
        // The first two runs pause after a random number of rows and are killed there, so the test
        // covers rotations cut short however fast the machine finishes one (on a quiet Node 24 the
        // first random kill could come after the whole rotation); the last two are killed at random
        // points, inside a batch's transaction included.
        const pauseAfter = kill < 2 ? [String(5 * (1 + Math.floor(Math.random() * 20)))] : [];
        const rotation = startChild('sealed-loop.mjs', [spec, rotatingFile, 'rekey', '5', ...pauseAfter]);
        await Promise.race([rotation.waitForLine('ready'), rotation.done]);
        if (pauseAfter.length > 0) {
          await Promise.race([rotation.waitForLine('paused'), rotation.done]);
        } else {
          // Killed once some batches are in (or, now and then, before the first).
          if (kill % 2 === 1) await Promise.race([rotation.waitForLine('batch 10'), rotation.done]);
          await sleep(Math.random() * 100);
        }
        rotation.process.kill('SIGKILL');
        const result = await rotation.done;
        expect(result.signal === 'SIGKILL' || result.code === 0, result.stderr).toBe(true);
        if (result.signal === 'SIGKILL' && !result.stdout.includes('done\n')) cutShort++;
      }
      expect(cutShort).toBeGreaterThan(1);
      const finish = await startChild('sealed-loop.mjs', [spec, rotatingFile, 'rekey', '50']).done;
      expect(finish.code, finish.stderr).toBe(0);
      expect(finish.stdout).toContain('done\n');
      writer.process.kill('SIGKILL');
      const written = await writer.done;
      creates.push(...acknowledged(written).creates);
      // Rows the writer added after the last rotation started are under the new key already; a last run finds none left.
      const last = await startChild('sealed-loop.mjs', [spec, rotatingFile, 'rekey', '50']).done;
      expect(last.code, last.stderr).toBe(0);
      const after = await open(newKeys);
      try {
        await holds(after, 'app', creates);
        const rotated = await open(oldKeys.with(newKeys));
        expect(await rotated.rekey()).toMatchObject({ resealed: {}, sealedPlaintext: 0, heads: 0 });
        await rotated.close();
      } finally {
        await after.close();
      }
    }, 300_000);
  });
}
