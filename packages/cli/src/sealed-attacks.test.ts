/**
 * Issue 36, item 7 through the real binary: attacks on a sealed store (SQLite and PostgreSQL) made
 * with raw SQL or on files, as someone with write access to the store but not the key would make
 * them. Each read fails closed with one typed JSON error, nothing on stderr, and the store exactly
 * as the attack left it. The library's attack suite (store-kysely's sealed-attacks.test.ts) covers
 * every case; this is the subset a CLI user meets.
 */
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, runCli, runCliBatch, tempDir, type CliResult } from './test-support/run-cli.js';
import { SEALED_BACKENDS, type SealedTarget } from './test-support/sealed-targets.js';

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

function parse(result: CliResult): { ok: boolean; result?: any; error?: string; type?: string } {
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { ok: boolean; result?: any; error?: string; type?: string };
}

function ok(result: CliResult): any {
  const out = parse(result);
  expect(out.ok, result.stdout).toBe(true);
  return out.result;
}

function refused(result: CliResult, type: string, message?: RegExp): string {
  const out = parse(result);
  expect(out.ok, result.stdout).toBe(false);
  expect(out.type, result.stdout).toBe(type);
  if (message) expect(out.error).toMatch(message);
  expect(result.stdout).not.toMatch(/\n\s+at /u);
  expect(result.code).toBe(1);
  return out.error as string;
}

/** A changed base64url character (the envelope's ciphertext edited). */
const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);

let dir: string;
let keyFile: string;

beforeAll(async () => {
  dir = tempDir('sc-cli-sealed-attacks-');
  keyFile = join(dir, 'app.keys');
  ok(await runCli(['keys', 'new', '--output', keyFile, '--id', 'k1'], { cwd: dir }));
  for (const n of [1, 2, 3, 4]) writeFileSync(join(dir, `p${n}.json`), JSON.stringify({ step: n, secret: `customer message ${n}` }));
});
afterAll(async () => {
  for (const backend of SEALED_BACKENDS) await backend.cleanup();
  removeTempDirs();
});

for (const backend of SEALED_BACKENDS) {
  describe.skipIf(!backend.available)(`a sealed ${backend.name} store attacked, through the binary`, () => {
    const cli = (target: SealedTarget, args: readonly string[], key: string | null = keyFile) => runCli([...args, ...target.args, ...(key === null ? [] : ['--key-file', key])], { cwd: dir });

    /** A sealed store: thread t1 with rows a, b, c (oldest first), thread t2 with row d; their ids (PostgreSQL may skip ids). */
    async function seeded(): Promise<SealedTarget & { id: { a: string; b: string; c: string; d: string } }> {
      const target = backend.fresh(dir);
      const rows: [string, number][] = [['t1', 1], ['t1', 2], ['t1', 3], ['t2', 4]];
      const results = await runCliBatch(
        rows.map(([thread, n]) => ({
          args: ['create', ...target.args, '--key-file', keyFile, '--session-id', thread, '--payload-file', `p${n}.json`, '--created-at', `2026-01-01T00:00:0${n}Z`],
          cwd: dir,
        })),
      );
      const ids = results.map((r) => String((ok(r) as { id: number }).id));
      expect(new Set(ids).size).toBe(4);
      expect(ok(results[0]!).seal).toEqual({ sealed: true, encrypted: true, verified: true });
      return { ...target, id: { a: ids[0]!, b: ids[1]!, c: ids[2]!, d: ids[3]! } };
    }

    /** Runs the calls, each refused with `type`, the store unchanged by every one. */
    async function refusedUnchanged(target: SealedTarget, calls: readonly (readonly string[])[], type: string, message?: RegExp, key: string | null = keyFile): Promise<string[]> {
      const before = await target.snapshot();
      const errors: string[] = [];
      for (const args of calls) {
        errors.push(refused(await cli(target, args, key), type, message));
        expect(await target.snapshot()).toBe(before);
      }
      return errors;
    }

    it('the stored rows are envelopes: no payload text in the store', async () => {
      const target = await seeded();
      const rows = await target.sql('SELECT payload_json FROM checkpoints ORDER BY id');
      expect(rows).toHaveLength(4);
      for (const row of rows) {
        expect(String(row.payload_json)).toMatch(/^\{"ct":"/u);
        expect(String(row.payload_json)).not.toContain('customer message');
      }
    });

    it('a payload edited with its hash recomputed: get, state and verify fail closed', async () => {
      const target = await seeded();
      const [row] = await target.sql(`SELECT payload_json FROM checkpoints WHERE id = ${target.id.b}`);
      const envelope = JSON.parse(String(row!.payload_json)) as { ct: string };
      const edited = JSON.stringify({ ...envelope, ct: flip(envelope.ct) });
      await target.sql(`UPDATE checkpoints SET payload_json = ${backend.name === 'SQLite' ? '?' : '$1'}, payload_sha256 = ${backend.name === 'SQLite' ? '?' : '$2'} WHERE id = ${target.id.b}`, [edited, sha256Hex(edited)]);
      const b = target.id.b;
      await refusedUnchanged(target, [['get', '--id', b], ['verify'], ['history', '--session-id', 't1'], ['state', '--thread', 't1', '--checkpoint', b]], 'CheckpointIntegrityError', new RegExp(`\\b${b}\\b`, 'u'));
    });

    it('plaintext injected with a correct hash: refused on read', async () => {
      const target = await seeded();
      const plain = '{"step":2,"tampered":true}';
      await target.sql(`UPDATE checkpoints SET payload_json = ${backend.name === 'SQLite' ? '?' : '$1'}, payload_sha256 = ${backend.name === 'SQLite' ? '?' : '$2'} WHERE id = ${target.id.b}`, [plain, sha256Hex(plain)]);
      await refusedUnchanged(target, [['get', '--id', target.id.b], ['verify']], 'CheckpointIntegrityError', /not sealed/u);
    });

    it('a row copied into another thread: refused, and the other thread does not resume from it', async () => {
      const target = await seeded();
      await target.sql(
        `INSERT INTO checkpoints (id, namespace, session_id, kind, name, payload_json, payload_sha256, created_at, source_ref) SELECT 100, namespace, 't2', kind, name, payload_json, payload_sha256, '2026-01-01T00:00:09Z', NULL FROM checkpoints WHERE id = ${target.id.c}`,
      );
      await refusedUnchanged(target, [['get', '--id', '100'], ['state', '--thread', 't2'], ['verify']], 'CheckpointIntegrityError');
    });

    it("a thread's newest row deleted (a rollback): history, state and verify fail closed", async () => {
      const target = await seeded();
      await target.sql(`DELETE FROM checkpoints WHERE id = ${target.id.c}`);
      await refusedUnchanged(target, [['history', '--session-id', 't1'], ['state', '--thread', 't1'], ['verify']], 'CheckpointIntegrityError');
      // The untouched thread still reads.
      expect(ok(await cli(target, ['get', '--id', target.id.d])).payload).toEqual({ step: 4, secret: 'customer message 4' });
    });

    it('the whole store put back from an older copy: only --expect-head sees it', async () => {
      const target = await seeded();
      const backup = await target.backup();
      const newer = ok(await cli(target, ['verify'])).head as string;
      expect(newer).toMatch(/^sc-head-v1:4:[0-9a-f]{32}$/u);
      ok(await runCli(['create', ...target.args, '--key-file', keyFile, '--session-id', 't1', '--payload-file', 'p1.json'], { cwd: dir }));
      const latest = ok(await cli(target, ['verify'])).head as string;
      await backup.restore();
      // Every row, chain and head of the older copy is genuine.
      expect(ok(await cli(target, ['verify'])).head).toBe(newer);
      const [error] = await refusedUnchanged(target, [['verify', '--expect-head', latest]], 'CheckpointIntegrityError', /rolled back or replaced by an older copy/u);
      expect(error).toContain(latest);
      ok(await cli(target, ['verify', '--expect-head', newer]));
    });

    it('the wrong key (same id, another secret; another id): reads and writes refused, nothing written', async () => {
      const target = await seeded();
      const sameId = join(dir, `wrong-same-${backend.name}.keys`);
      const otherId = join(dir, `wrong-other-${backend.name}.keys`);
      ok(await runCli(['keys', 'new', '--output', sameId, '--id', 'k1'], { cwd: dir }));
      ok(await runCli(['keys', 'new', '--output', otherId, '--id', 'k9'], { cwd: dir }));
      await refusedUnchanged(target, [['get', '--id', target.id.a], ['verify'], ['create', '--session-id', 't1', '--payload-file', 'p1.json'], ['delete', '--id', target.id.c, '--apply']], 'CheckpointIntegrityError', undefined, sameId);
      const before = await target.snapshot();
      for (const args of [['get', '--id', target.id.a], ['create', '--session-id', 't1', '--payload-file', 'p1.json']]) {
        const out = parse(await cli(target, args, otherId));
        expect(out.ok).toBe(false);
        expect(['CheckpointIntegrityError', 'CheckpointValidationError']).toContain(out.type);
        expect(out.error).toMatch(/'k1'/u);
        expect(await target.snapshot()).toBe(before);
      }
    });

    it('no key for a sealed store: writes refused (StoreSecurityError), nothing written', async () => {
      const target = await seeded();
      await refusedUnchanged(
        target,
        [['create', '--session-id', 't1', '--payload-file', 'p1.json'], ['delete', '--id', target.id.c, '--apply'], ['prune', '--keep-latest', '1', '--apply']],
        'StoreSecurityError',
        /sealed: give its key file/u,
        null,
      );
    });

    it('a key file that group or others may read: refused before the store is touched', async () => {
      const target = await seeded();
      const loose = join(dir, `loose-${backend.name}.keys`);
      writeFileSync(loose, readFileSync(keyFile), { mode: 0o600 });
      chmodSync(loose, 0o640);
      const errors = await refusedUnchanged(target, [['get', '--id', target.id.a], ['create', '--session-id', 't1', '--payload-file', 'p1.json'], ['verify']], 'StoreSecurityError', /mode 0640.*chmod 600/u, loose);
      expect(errors[0]).toContain(loose);
      // The same through the environment variable.
      const before = await target.snapshot();
      refused(await runCli(['get', '--id', target.id.a, ...target.args], { cwd: dir, env: { SESSION_CHECKPOINT_KEY_FILE: loose } }), 'StoreSecurityError');
      expect(await target.snapshot()).toBe(before);
    });

    it('a bundle edited in transit: the import refuses it and writes nothing', async () => {
      const source = await seeded();
      const bundlePath = join(dir, `sealed-${backend.name}.json`);
      expect(ok(await cli(source, ['export', '--output', bundlePath])).checkpoints).toBe(4);
      const bundle = JSON.parse(readFileSync(bundlePath, 'utf8')) as { checkpoints: { id: number; payload: { ct: string }; payload_sha256: string }[]; session_checkpoint_seal?: unknown };
      expect(bundle.session_checkpoint_seal).toBeDefined();
      const target = backend.fresh(dir);
      ok(await cli(target, ['init']));
      // A payload edited, its hash recomputed.
      const edited = structuredClone(bundle);
      const item = edited.checkpoints[1]!;
      item.payload = { ...item.payload, ct: flip(item.payload.ct) };
      item.payload_sha256 = sha256Hex(JSON.stringify(item.payload));
      writeFileSync(join(dir, 'edited.json'), JSON.stringify(edited));
      // The newest row of t1 dropped (a rollback in transit).
      const dropped = structuredClone(bundle);
      dropped.checkpoints = dropped.checkpoints.filter((c) => String(c.id) !== source.id.c);
      writeFileSync(join(dir, 'dropped.json'), JSON.stringify(dropped));
      await refusedUnchanged(
        target,
        [
          ['import', '--input', 'edited.json', '--apply'],
          ['import', '--input', 'edited.json'],
          ['import', '--input', 'dropped.json', '--apply'],
        ],
        'CheckpointIntegrityError',
      );
      // The genuine bundle imports.
      const { a, b, c, d } = source.id;
      expect(ok(await cli(target, ['import', '--input', bundlePath, '--apply']))).toEqual({ dry_run: false, inserted: [a, b, c, d].map(Number), unchanged: [] });
      expect(ok(await cli(target, ['get', '--id', c])).payload).toEqual({ step: 3, secret: 'customer message 3' });
    });
  });
}
