/**
 * Issue 36, item 6 through the real binary: `rekey` killed with SIGKILL at several points of a
 * rotation (before it opens the store, and after some, many and most batches), while a writer
 * process keeps writing with the rotation's keyring (old keys read, the new one writes). After
 * every kill the store verifies (every row and head sealed under one of the keys, no chain
 * broken); running the command again goes on where it stopped; at the end every row and head is
 * under the new key, the new key alone opens the store, and every write the writer saw committed
 * is there. On SQLite and PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadKeyFile, writeKeyFile, type CheckpointStore } from '@session-checkpoint/core';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, cliEnv, removeTempDirs, runCli, tempDir, type CliResult } from './test-support/run-cli.js';
import { PG_URL, SEALED_BACKENDS, type SealedTarget } from './test-support/sealed-targets.js';

const WRITER = fileURLToPath(new URL('./test-support/sealed-writer.mjs', import.meta.url));
const SESSIONS = 12;
const PER_SESSION = 20;
const SEEDED = SESSIONS * PER_SESSION;

function ok(result: CliResult): any {
  expect(result.stderr).toBe('');
  const out = JSON.parse(result.stdout) as { ok: boolean; result?: unknown };
  expect(out.ok, result.stdout).toBe(true);
  return out.result;
}

/** A child process: its output so far, and a way to wait for its end. */
function start(argv: readonly string[], cwd: string) {
  const child = spawn(process.execPath, argv, { cwd, env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  let done = false;
  void ended.then(() => (done = true));
  return {
    child,
    ended,
    get running() {
      return !done;
    },
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
  };
}

let dir: string;
let k1: string;
let k2: string;
let both: string;

beforeAll(async () => {
  dir = tempDir('sc-cli-rekey-');
  k1 = join(dir, 'k1.keys');
  k2 = join(dir, 'k2.keys');
  both = join(dir, 'k1-k2.keys');
  ok(await runCli(['keys', 'new', '--output', k1, '--id', 'k1'], { cwd: dir }));
  ok(await runCli(['keys', 'new', '--output', k2, '--id', 'k2'], { cwd: dir }));
  // The writers' keyring during the rotation: k1 reads, k2 writes.
  await writeKeyFile(both, (await loadKeyFile(k1)).with(await loadKeyFile(k2)));
});
afterAll(async () => {
  for (const backend of SEALED_BACKENDS) await backend.cleanup();
  removeTempDirs();
});

/** Opens the target through the library (for seeding), with the keys of `keyFile`. */
async function openTarget(target: SealedTarget, keyFile: string): Promise<CheckpointStore> {
  const keys = await loadKeyFile(keyFile);
  const [flag, value, , schema] = target.args;
  return flag === '--store' ? openSqliteStore(value as string, { keys, create: true }) : openPostgresStore(PG_URL as string, { schema: schema as string, keys, create: true });
}

/** Rows still sealed under k1 (the store's envelopes name their key id). */
async function underK1(target: SealedTarget): Promise<number> {
  const [row] = await target.sql(`SELECT COUNT(*) AS n FROM checkpoints WHERE payload_json LIKE '%"key":"k1"%'`);
  return Number(row!.n);
}

for (const backend of SEALED_BACKENDS) {
  describe.skipIf(!backend.available)(`rekey on ${backend.name}, killed and resumed beside a writer`, () => {
    it('a dry run writes nothing; a store with a failing row is not rotated at all', async () => {
      const target = backend.fresh(dir);
      const store = await openTarget(target, k1);
      for (let i = 0; i < 5; i++) await store.create({ namespace: 'app', sessionId: 's', payload: { i } });
      await store.close();
      const before = await target.snapshot();
      const dry = ok(await runCli(['rekey', ...target.args, '--key-file', k1, '--new-key-file', k2], { cwd: dir }));
      expect(dry).toEqual({ dry_run: true, active_key: 'k2', current: 0, resealed: { k1: 5 }, sealed_plaintext: 0, heads: 1 });
      expect(await target.snapshot()).toBe(before);
      // A row edited by someone without the key: the rotation refuses before writing anything.
      const [row] = await target.sql('SELECT id FROM checkpoints ORDER BY id LIMIT 1');
      await target.sql(`UPDATE checkpoints SET kind = 'edited' WHERE id = ${String(row!.id)}`);
      const tampered = await target.snapshot();
      const refused = await runCli(['rekey', ...target.args, '--key-file', k1, '--new-key-file', k2, '--apply'], { cwd: dir });
      expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, type: 'CheckpointIntegrityError' });
      expect(await target.snapshot()).toBe(tampered);
    });

    it('SIGKILL at several points while a writer writes: every kill leaves a store that verifies, and a rerun finishes the rotation', async () => {
      const target = backend.fresh(dir);
      const seed = await openTarget(target, k1);
      const payloads = new Map<number, unknown>();
      for (let s = 0; s < SESSIONS; s++) {
        for (let i = 0; i < PER_SESSION; i++) {
          const payload = { s, i, text: `turn ${i} of session ${s} `.repeat(1 + (i % 7)) };
          payloads.set((await seed.create({ namespace: 'app', sessionId: `session-${s}`, payload })).id, payload);
        }
      }
      await seed.close();
      expect(await underK1(target)).toBe(SEEDED);

      const writer = start([WRITER, target.spec, both], dir);
      while (!writer.stdout.includes('create ')) {
        expect(writer.running, writer.stdout).toBe(true);
        await sleep(20);
      }
      const rekeyArgs = [CLI_BIN, 'rekey', ...target.args, '--key-file', k1, '--new-key-file', k2, '--apply', '--batch-size', '10'];
      const remainingAfterKills: number[] = [];
      // Kill points: before the store is opened, then once 30, 110 and 200 rows moved to k2.
      for (const moved of [0, 30, 110, 200]) {
        const rekey = start(rekeyArgs, dir);
        if (moved > 0) {
          while (rekey.running && SEEDED - (await underK1(target)) < moved) await sleep(10);
        }
        rekey.child.kill('SIGKILL');
        const end = await rekey.ended;
        if (end.signal === null) expect(JSON.parse(rekey.stdout), rekey.stdout).toMatchObject({ ok: true });
        remainingAfterKills.push(await underK1(target));
        // Nothing half-sealed: every row, chain and head checks out under the rotation's keyring,
        // with the writer still writing (verify re-reads a session a write moved under it).
        const report = ok(await runCli(['verify', ...target.args, '--key-file', both], { cwd: dir }));
        expect(report.failures).toEqual([]);
        expect(report.checked).toBe(report.ok);
      }
      // The rotation was caught part-way at least once (rows still under k1 after a kill).
      expect(remainingAfterKills.some((n) => n > 0 && n < SEEDED)).toBe(true);

      // Resumed to the end while the writer still writes.
      const finished = ok(await runCli(rekeyArgs.slice(1), { cwd: dir }));
      expect(finished.dry_run).toBe(false);
      expect(await underK1(target)).toBe(0);
      writer.child.kill('SIGKILL');
      await writer.ended;
      const acknowledged = writer.stdout.split('\n').slice(0, -1).filter((line) => line.startsWith('create ')).map((line) => Number(line.slice(7)));
      expect(acknowledged.length).toBeGreaterThan(0);
      expect(writer.stdout).not.toContain('error ');

      // Nothing left to do, and the new key alone opens everything.
      const last = ok(await runCli(['rekey', ...target.args, '--key-file', k1, '--new-key-file', k2], { cwd: dir }));
      expect(last).toMatchObject({ dry_run: true, resealed: {}, sealed_plaintext: 0, heads: 0 });
      const report = ok(await runCli(['verify', ...target.args, '--key-file', k2], { cwd: dir }));
      const ids = new Set((await target.sql('SELECT id FROM checkpoints')).map((r) => Number(r.id)));
      expect(report.checked).toBe(ids.size);
      expect(report.sealed).toBe(ids.size);
      for (const id of [...payloads.keys(), ...acknowledged]) expect(ids.has(id), `id ${id}`).toBe(true);
      for (const id of [...payloads.keys()].filter((_, i) => i % 37 === 0)) {
        expect(ok(await runCli(['get', ...target.args, '--key-file', k2, '--namespace', 'app', '--id', String(id)], { cwd: dir })).payload).toEqual(payloads.get(id));
      }
      // And the old key alone no longer reads the store.
      const old = await runCli(['get', ...target.args, '--key-file', k1, '--namespace', 'app', '--id', String([...payloads.keys()][0])], { cwd: dir });
      expect(JSON.parse(old.stdout)).toMatchObject({ ok: false });
    });
  });
}
