/**
 * `migrate` through the real binary: a SqliteSaver file (and a PostgresSaver schema) moved into a
 * store and back, dry run first, a second run that copies nothing, JSON errors for bad input, and
 * a clear error when the optional LangGraph packages are not installed.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { uuid6, type Checkpoint } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, removeTempDirs, runCli, tempDir, type CliResult } from './test-support/run-cli.js';

const PG_URL = process.env.SC_PG_URL;
let dir: string;

async function ok(args: string[], cwd = dir): Promise<Record<string, unknown>> {
  const r = await runCli(args, { cwd });
  // Not a terminal: no progress on stderr.
  expect(r.stderr).toBe('');
  expect(r.code, r.stdout).toBe(0);
  const parsed = JSON.parse(r.stdout) as { ok: boolean; result: Record<string, unknown> };
  expect(parsed.ok).toBe(true);
  return parsed.result;
}

async function fails(args: string[], type: string, code = 1, cwd = dir): Promise<CliResult & { error: string }> {
  const r = await runCli(args, { cwd });
  expect(r.stderr).toBe('');
  expect(r.code, r.stdout).toBe(code);
  const parsed = JSON.parse(r.stdout) as { ok: boolean; error: string; type: string };
  expect(parsed.type, parsed.error).toBe(type);
  return { ...r, error: parsed.error };
}

/**
 * Two threads on `saver`: one with a subgraph namespace, a fork (two children of one parent) and
 * pending writes, one plain. Returns the checkpoints and writes put.
 */
async function fill(saver: SqliteSaver | PostgresSaver): Promise<{ checkpoints: number; writes: number }> {
  let checkpoints = 0;
  let writes = 0;
  const put = async (thread: string, ns: string, parent: string | undefined, step: number, values: Record<string, unknown>) => {
    const versions = Object.fromEntries(Object.keys(values).map((k) => [k, step + 1]));
    const checkpoint: Checkpoint = { v: 4, id: uuid6(-1), ts: new Date().toISOString(), channel_values: values, channel_versions: versions, versions_seen: {} };
    const config = { configurable: { thread_id: thread, checkpoint_ns: ns, ...(parent === undefined ? {} : { checkpoint_id: parent }) } };
    checkpoints++;
    return (await saver.put(config, checkpoint, { source: 'loop', step, parents: {} }, versions)).configurable?.checkpoint_id as string;
  };
  const a = await put('t-1', '', undefined, 0, { messages: ['hi'], count: 0 });
  const b = await put('t-1', '', a, 1, { messages: ['hi', 'hello'], count: 1 });
  await put('t-1', '', b, 2, { messages: ['hi', 'hello', 'branch one'], count: 2 });
  const fork = await put('t-1', '', b, 2, { messages: ['hi', 'hello', 'branch two'], count: 2 });
  await saver.putWrites({ configurable: { thread_id: 't-1', checkpoint_ns: '', checkpoint_id: fork } }, [['messages', ['next']], ['__interrupt__', [{ value: 'ok?' }]]], 'task-1');
  writes += 2;
  const sub = await put('t-1', 'review:1', undefined, 0, { notes: 'sub' });
  await put('t-1', 'review:1', sub, 1, { notes: 'sub 2' });
  await put('t-2', '', undefined, 0, { messages: ['other'] });
  return { checkpoints, writes };
}

describe('migrate', () => {
  let counts: { checkpoints: number; writes: number };
  beforeAll(async () => {
    dir = tempDir('sc-migrate-');
    const saver = SqliteSaver.fromConnString(join(dir, 'lg.db'));
    counts = await fill(saver);
    saver.db.close();
  });
  afterAll(removeTempDirs);

  it('moves a SqliteSaver file into the store (dry run first), then back out', async () => {
    const dry = await ok(['migrate', '--from', 'sqlite:lg.db', '--store', 's.sqlite']);
    expect(dry).toEqual({ dry_run: true, direction: 'in', threads: 2, checkpoints: counts.checkpoints, writes: counts.writes, present: 0, verification: null });
    expect(existsSync(join(dir, 's.sqlite'))).toBe(false); // a dry run creates nothing

    const applied = await ok(['migrate', '--from', 'sqlite:lg.db', '--store', 's.sqlite', '--apply']);
    expect(applied).toEqual({
      dry_run: false,
      direction: 'in',
      threads: 2,
      checkpoints: counts.checkpoints,
      writes: counts.writes,
      present: 0,
      verification: { checkpoints: counts.checkpoints, differences: [] },
    });
    expect(await ok(['verify', '--store', 's.sqlite'])).toMatchObject({ failures: [] });
    const sessions = (await ok(['sessions', '--store', 's.sqlite', '--namespace', 'langgraph'])) as unknown as { session_id: string }[];
    expect(sessions.map((s) => s.session_id).sort()).toEqual(['t-1', 't-2']);

    // Again: everything is there, nothing is copied twice.
    expect(await ok(['migrate', '--from', 'sqlite:lg.db', '--store', 's.sqlite', '--apply'])).toMatchObject({ checkpoints: 0, writes: 0, present: counts.checkpoints });

    // Back out into a new SqliteSaver file: a dry run creates nothing, --apply creates it.
    expect(await ok(['migrate', '--from', 'sqlite:back.db', '--store', 's.sqlite', '--reverse'])).toMatchObject({ dry_run: true, direction: 'out', checkpoints: counts.checkpoints });
    expect(existsSync(join(dir, 'back.db'))).toBe(false);
    expect(await ok(['migrate', '--from', 'sqlite:back.db', '--store', 's.sqlite', '--reverse', '--apply'])).toMatchObject({
      direction: 'out',
      checkpoints: counts.checkpoints,
      writes: counts.writes,
      verification: { differences: [] },
    });
    const back = SqliteSaver.fromConnString(join(dir, 'back.db'));
    const original = SqliteSaver.fromConnString(join(dir, 'lg.db'));
    const latest = { configurable: { thread_id: 't-1', checkpoint_ns: '' } };
    expect(await back.getTuple(latest)).toEqual(await original.getTuple(latest));
    back.db.close();
    original.db.close();
  });

  it('answers bad input with JSON errors', async () => {
    expect((await fails(['migrate', '--from', 'sqlite:missing.db', '--store', 's.sqlite'], 'StoreNotFoundError')).error).toContain('missing.db');
    await fails(['migrate', '--from', 'sqlite:', '--store', 's.sqlite'], 'CheckpointValidationError');
    await fails(['migrate', '--from', 'postgres://[bad', '--store', 's.sqlite'], 'CheckpointValidationError');
    expect((await fails(['migrate', '--from', 'mysql://x/y', '--store', 's.sqlite'], 'UsageError', 2)).error).toContain('sqlite:PATH or postgres://URL');
    await fails(['migrate', '--store', 's.sqlite'], 'UsageError', 2);
    await fails(['migrate', '--from', 'sqlite:lg.db'], 'UsageError', 2); // no store
    // The store must exist to copy out of it.
    await fails(['migrate', '--from', 'sqlite:out.db', '--store', 'none.sqlite', '--reverse', '--apply'], 'StoreNotFoundError');
    expect(existsSync(join(dir, 'none.sqlite'))).toBe(false);
  });

  it('names the package to install when @session-checkpoint/langgraph is missing', async () => {
    // A copy of the built CLI next to a node_modules that has everything but the LangGraph packages.
    const root = tempDir('sc-migrate-nolg-');
    const cliDir = join(root, 'cli');
    const packageDir = join(CLI_BIN, '..', '..');
    for (const entry of ['bin', 'dist', 'package.json', 'oclif.manifest.json']) cpSync(join(packageDir, entry), join(cliDir, entry), { recursive: true });
    const modules = join(packageDir, '..', '..', 'node_modules');
    mkdirSync(join(root, 'node_modules', '@session-checkpoint'), { recursive: true });
    for (const entry of readdirSync(modules)) {
      if (entry === '@session-checkpoint' || entry === '@langchain' || entry.startsWith('.')) continue;
      symlinkSync(join(modules, entry), join(root, 'node_modules', entry));
    }
    for (const entry of readdirSync(join(modules, '@session-checkpoint'))) {
      if (entry !== 'langgraph') symlinkSync(join(modules, '@session-checkpoint', entry), join(root, 'node_modules', '@session-checkpoint', entry));
    }
    const r = await runCliAt(join(cliDir, 'bin', 'run.cjs'), ['migrate', '--from', 'sqlite:lg.db', '--store', 's.sqlite']);
    expect(r.code, r.stdout).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      ok: false,
      type: 'MissingPackageError',
      error: 'migrate needs @session-checkpoint/langgraph, which is not installed: run npm install @session-checkpoint/langgraph',
    });
    // Every other command still runs without it.
    const list = await runCliAt(join(cliDir, 'bin', 'run.cjs'), ['sessions', '--store', 's.sqlite']);
    expect(list.code, list.stdout).toBe(0);
  });

  it.skipIf(!PG_URL)('moves a PostgresSaver schema into the store', async () => {
    const schema = `sc_cli_mig_${process.pid}`;
    const saver = PostgresSaver.fromConnString(PG_URL ?? '', { schema });
    try {
      await saver.setup();
      const put = await fill(saver);
      const url = `${PG_URL}?schema=${schema}`;
      expect(await ok(['migrate', '--from', url, '--store', 'from-pg.sqlite', '--apply'])).toMatchObject({
        threads: 2,
        checkpoints: put.checkpoints,
        writes: put.writes,
        verification: { differences: [] },
      });
      await fails(['migrate', '--from', `${PG_URL}?schema=${schema}_none`, '--store', 'from-pg.sqlite'], 'StoreNotFoundError');
    } finally {
      await saver.end();
      const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    }
  });
});

/** Runs another copy of the binary (same environment rules as runCli). */
async function runCliAt(bin: string, args: string[]): Promise<CliResult> {
  const { spawnSync } = await import('node:child_process');
  const { cliEnv } = await import('./test-support/run-cli.js');
  const started = performance.now();
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: dir, env: cliEnv(), encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - started };
}
