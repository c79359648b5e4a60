/**
 * Links this plugin into the real `session-checkpoint` binary (as a user would, with
 * `plugins link`) and runs its command: the plugin mechanism, BaseCommand's store flags, JSON
 * output and error mapping, end to end.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url));
// The CLI package's main is dist/index.js; its binary is bin/run.js next to dist.
const CLI_BIN = join(dirname(createRequire(import.meta.url).resolve('@session-checkpoint/cli')), '..', 'bin', 'run.js');
const work = realpathSync(mkdtempSync(join(tmpdir(), 'sc-plugin-')));

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], extraEnv: Record<string, string> = {}): Promise<Result> {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_DATA_HOME: join(work, 'data'), XDG_CONFIG_HOME: join(work, 'config'), XDG_CACHE_HOME: join(work, 'cache'), OCLIF_DISABLE_LINKED_ESM_WARNING: '1' };
  for (const key of ['NODE_ENV', 'SESSION_CHECKPOINT_STORE', 'SESSION_CHECKPOINT_DATABASE_URL']) delete env[key];
  Object.assign(env, extraEnv);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: work, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

describe('plugin-hello linked into session-checkpoint', () => {
  beforeAll(async () => {
    const linked = await cli(['plugins', 'link', PLUGIN_DIR, '--no-install']);
    expect(linked.code, linked.stdout + linked.stderr).toBe(0);
    writeFileSync(join(work, 'p.json'), '{"step": 1}');
    for (const session of ['a', 'a', 'b']) {
      const created = await cli(['create', '--store', 's.sqlite', '--namespace', 'app', '--session-id', session, '--payload-file', 'p.json']);
      expect(created.code, created.stdout).toBe(0);
    }
  }, 120_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('lists the linked plugin', async () => {
    const plugins = await cli(['plugins']);
    expect(plugins.code).toBe(0);
    expect(plugins.stdout).toContain('@session-checkpoint/plugin-hello');
  });

  it('runs the plugin command with the store flags and JSON output', async () => {
    const result = await cli(['hello', '--store', 's.sqlite', '--namespace', 'app']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: true,
      result: { greeting: 'Hello from @session-checkpoint/plugin-hello', store: join(work, 's.sqlite'), namespace: 'app', sessions: 2, checkpoints: 3 },
    });
  });

  it('takes the store from the environment like built-in commands', async () => {
    const result = await cli(['hello'], { SESSION_CHECKPOINT_STORE: 's.sqlite' });
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, result: { namespace: 'default', checkpoints: 0 } });
  });

  it('reports failures with the same JSON error contract', async () => {
    const missing = await cli(['hello', '--store', 'missing.sqlite']);
    expect(missing.stderr).toBe('');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, type: 'StoreNotFoundError' });
    const usage = await cli(['hello', '--store', 's.sqlite', '--bogus']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toMatchObject({ ok: false, type: 'UsageError' });
  });

  it('shows the plugin command in help with its examples', async () => {
    const help = await cli(['hello', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('$ session-checkpoint hello --store app.sqlite');
  });
});
