/**
 * The commands beyond the reference (verify, sessions, history, prune, list --session-id,
 * import --namespace, delete --force, stdin payloads, environment store selection) and the
 * `__proto__` round trip, through the real binary.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, runCli, tempDir, type CliResult } from './test-support/run-cli.js';

let dir: string;

async function ok(args: string[], options: { env?: Record<string, string | undefined>; input?: string } = {}): Promise<unknown> {
  const r = await runCli(args, { cwd: dir, ...options });
  expect(r.stderr).toBe('');
  expect(r.code, r.stdout).toBe(0);
  const parsed = JSON.parse(r.stdout) as { ok: boolean; result: unknown };
  expect(parsed.ok).toBe(true);
  return parsed.result;
}

async function fails(args: string[], type: string, code = 1): Promise<CliResult & { error: string }> {
  const r = await runCli(args, { cwd: dir });
  expect(r.stderr).toBe('');
  expect(r.code, r.stdout).toBe(code);
  const parsed = JSON.parse(r.stdout) as { ok: boolean; error: string; type: string };
  expect(parsed.type).toBe(type);
  return { ...r, error: parsed.error };
}

const ids = (rows: unknown): number[] => (rows as { id: number }[]).map((r) => r.id);

describe('commands beyond the reference', () => {
  beforeAll(async () => {
    dir = tempDir('sc-cmd-');
    const make = (session: string, at: string, ns = 'app'): string[] =>
      ['create', '--store', 's.sqlite', '--namespace', ns, '--session-id', session, '--payload-file', '-', '--created-at', at];
    // Two sessions in `app` (ids 1-4), one in `other` (id 5); payloads come through stdin.
    await ok(make('a', '2026-01-01T00:00:00Z'), { input: '{"n": 1}' });
    await ok(make('a', '2026-01-02T00:00:00Z'), { input: '{"n": 2}' });
    await ok(make('b', '2026-01-03T00:00:00Z'), { input: '{"n": 3}' });
    await ok(make('a', '2026-01-04T00:00:00Z'), { input: '{"n": 4.0}' });
    await ok(make('c', '2026-01-05T00:00:00Z', 'other'), { input: '{"n": 5}' });
  });

  afterAll(removeTempDirs);

  it('reads the payload from standard input with --payload-file -', async () => {
    const cp = (await ok(['get', '--store', 's.sqlite', '--namespace', 'app', '--id', '4'])) as { payload: unknown };
    expect(cp.payload).toEqual({ n: 4 });
    const r = await runCli(['get', '--store', 's.sqlite', '--namespace', 'app', '--id', '4'], { cwd: dir });
    expect(r.stdout).toContain('"n": 4.0');
  });

  it('filters list by --session-id', async () => {
    expect(ids(await ok(['list', '--store', 's.sqlite', '--namespace', 'app', '--session-id', 'a']))).toEqual([4, 2, 1]);
    expect(ids(await ok(['list', '--store', 's.sqlite', '--namespace', 'app']))).toEqual([4, 3, 2, 1]);
  });

  it('lists sessions and a session history', async () => {
    expect(await ok(['sessions', '--store', 's.sqlite', '--namespace', 'app'])).toEqual([
      { session_id: 'a', count: 3, latest_id: 4, latest_created_at: '2026-01-04T00:00:00Z' },
      { session_id: 'b', count: 1, latest_id: 3, latest_created_at: '2026-01-03T00:00:00Z' },
    ]);
    expect(ids(await ok(['history', '--store', 's.sqlite', '--namespace', 'app', '--session-id', 'a', '--limit', '2']))).toEqual([4, 2]);
  });

  it('prunes as a dry run unless --apply', async () => {
    const args = ['prune', '--store', 's.sqlite', '--namespace', 'app', '--session-id', 'a', '--keep-latest', '1'];
    expect(await ok(args)).toEqual({ dry_run: true, selected: [1, 2], deleted: [] });
    expect(ids(await ok(['history', '--store', 's.sqlite', '--namespace', 'app', '--session-id', 'a']))).toEqual([4, 2, 1]);
    copyFileSync(join(dir, 's.sqlite'), join(dir, 'p.sqlite'));
    const applied = args.map((a) => (a === 's.sqlite' ? 'p.sqlite' : a));
    expect(await ok([...applied, '--apply'])).toEqual({ dry_run: false, selected: [1, 2], deleted: [1, 2] });
    expect(ids(await ok(['list', '--store', 'p.sqlite', '--namespace', 'app']))).toEqual([4, 3]);
    expect(await ok(['prune', '--store', 'p.sqlite', '--namespace', 'app', '--older-than', '2026-01-04T00:00:00Z'])).toEqual({ dry_run: true, selected: [3], deleted: [] });
  });

  it('verifies a store and names every bad row', async () => {
    expect(await ok(['verify', '--store', 's.sqlite'])).toEqual({ namespace: null, checked: 5, ok: 5, failures: [] });
    copyFileSync(join(dir, 's.sqlite'), join(dir, 'bad.sqlite'));
    const db = new Database(join(dir, 'bad.sqlite'));
    db.prepare(`UPDATE checkpoints SET payload_json = '{"n":9}' WHERE id IN (2, 5)`).run();
    db.close();
    const r = await fails(['verify', '--store', 'bad.sqlite'], 'CheckpointIntegrityError');
    expect(r.error).toMatch(/^2 of 5 checkpoints failed integrity verification: id 2 \(.+\), id 5 \(.+\)$/u);
    const scoped = await fails(['verify', '--store', 'bad.sqlite', '--namespace', 'app'], 'CheckpointIntegrityError');
    expect(scoped.error).toMatch(/^1 of 4 checkpoints failed integrity verification: id 2 \(/u);
  });

  it('deletes a row that fails verification only with --apply --force', async () => {
    copyFileSync(join(dir, 's.sqlite'), join(dir, 'f.sqlite'));
    const db = new Database(join(dir, 'f.sqlite'));
    db.prepare(`UPDATE checkpoints SET payload_sha256 = 'x' WHERE id = 3`).run();
    db.close();
    await fails(['delete', '--store', 'f.sqlite', '--namespace', 'app', '--id', '3', '--apply'], 'CheckpointIntegrityError');
    expect(await ok(['delete', '--store', 'f.sqlite', '--namespace', 'app', '--id', '3', '--force'])).toEqual({
      dry_run: true,
      checkpoint: null,
      deleted: [],
      integrity_failure: 'payload hash mismatch',
    });
    expect(await ok(['delete', '--store', 'f.sqlite', '--namespace', 'app', '--id', '3', '--apply', '--force'])).toMatchObject({ dry_run: false, deleted: [3] });
    expect(await ok(['verify', '--store', 'f.sqlite'])).toMatchObject({ checked: 4, ok: 4 });
  });

  it('imports one namespace of a bundle with --namespace', async () => {
    await ok(['export', '--store', 's.sqlite', '--output', 'all.json']);
    expect(await ok(['import', '--store', 'n.sqlite', '--input', 'all.json', '--namespace', 'other', '--apply'])).toEqual({
      dry_run: false,
      inserted: [5],
      unchanged: [],
    });
    expect(await ok(['verify', '--store', 'n.sqlite'])).toMatchObject({ checked: 1 });
  });

  it('takes the store from the environment, and a flag beats the environment', async () => {
    const env = { SESSION_CHECKPOINT_STORE: 's.sqlite' };
    expect(ids(await ok(['list', '--namespace', 'other'], { env }))).toEqual([5]);
    expect(await ok(['list', '--namespace', 'other', '--store', 'p.sqlite'], { env: { SESSION_CHECKPOINT_DATABASE_URL: 'postgres://x@127.0.0.1:1/x' } })).toEqual([
      expect.objectContaining({ id: 5 }),
    ]);
  });

  it('never creates a store from a read command', async () => {
    for (const command of [['list'], ['get', '--id', '1'], ['sessions'], ['verify'], ['export', '--output', 'x.json'], ['delete', '--id', '1'], ['prune', '--keep-latest', '1']]) {
      await fails([...command, '--store', 'absent.sqlite'], 'StoreNotFoundError');
    }
    expect(existsSync(join(dir, 'absent.sqlite'))).toBe(false);
  });

  it('keeps __proto__ and constructor keys as data through create, get, export and import', async () => {
    const payload = '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}, "big": 12345678901234567890, "f": 1.50}';
    writeFileSync(join(dir, 'proto.json'), payload);
    const created = (await ok(['create', '--store', 'proto.sqlite', '--session-id', 's', '--payload-file', 'proto.json'])) as { id: number; payload_sha256: string };
    const got = await runCli(['get', '--store', 'proto.sqlite', '--id', String(created.id)], { cwd: dir });
    expect(got.stdout).toContain('"__proto__": {\n        "polluted": true\n      }');
    expect(got.stdout).toContain('"big": 12345678901234567890');
    expect(got.stdout).toContain('"f": 1.5');
    await ok(['export', '--store', 'proto.sqlite', '--output', 'proto-bundle.json']);
    expect(await ok(['import', '--store', 'proto2.sqlite', '--input', 'proto-bundle.json', '--apply'])).toEqual({ dry_run: false, inserted: [created.id], unchanged: [] });
    const again = await runCli(['get', '--store', 'proto2.sqlite', '--id', String(created.id)], { cwd: dir });
    expect(again.stdout).toBe(got.stdout.replace(join(dir, 'proto.sqlite'), join(dir, 'proto2.sqlite')));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('prints help with examples for every command', async () => {
    const commands = ['init', 'create', 'get', 'list', 'delete', 'export', 'import', 'verify', 'sessions', 'history', 'prune'];
    const results = await Promise.all(commands.map((c) => runCli([c, '--help'], { cwd: dir })));
    for (const [i, r] of results.entries()) {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('EXAMPLES');
      expect(r.stdout).toContain(`$ session-checkpoint ${commands[i]} `);
      expect(r.stdout).toContain('--store');
      expect(r.stdout).toContain('--database-url');
    }
  });
});
