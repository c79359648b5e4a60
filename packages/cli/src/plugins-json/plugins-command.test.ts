/**
 * `plugins ...` through the real binary: one JSON document on stdout, nothing on stderr, exit
 * codes as for the other commands; a local tarball or folder installs from its path with npm
 * told to stay offline (the example plugin has no registry dependency, only optional peers).
 * Also the hangs and the silent success found by the outside attack (issue 19): a deleted working
 * directory, a FIFO as the plugin record, a plugin command that is not a class.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, cliEnv, removeTempDirs, runCli, tempDir, type CliResult } from '../test-support/run-cli.js';

const EXAMPLE = fileURLToPath(new URL('../../../../examples/plugin-hello', import.meta.url));
const work = tempDir('sc-plugins-json-');
const offline = { npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
let tarball = '';

/** A call with its own data directory; the result's stdout must be exactly one JSON document. */
async function cli(args: string[], data: string, env: Record<string, string> = {}): Promise<CliResult & { json: { ok: boolean; result?: unknown; error?: string; type?: string } }> {
  const result = await runCli(args, { cwd: work, env: { ...offline, SESSION_CHECKPOINT_DATA_DIR: data, ...env } });
  return { ...result, json: JSON.parse(result.stdout) };
}

beforeAll(() => {
  const packed = spawnSync('npm', ['pack', EXAMPLE, '--pack-destination', work, '--silent'], { cwd: work, env: cliEnv(offline), encoding: 'utf8' });
  expect(packed.status, packed.stderr).toBe(0);
  tarball = join(work, packed.stdout.trim().split('\n').pop()!);
  writeFileSync(join(work, 'p.json'), '{"step": 1}');
  expect(spawnSync(process.execPath, [CLI_BIN, 'create', '--store', 's.sqlite', '--session-id', 'a', '--payload-file', 'p.json'], { cwd: work, env: cliEnv() }).status).toBe(0);
});

afterAll(removeTempDirs);

describe('plugins commands print JSON', () => {
  it('lists no plugins as an empty array', async () => {
    const list = await cli(['plugins'], join(work, 'empty'));
    expect(list).toMatchObject({ code: 0, stderr: '', json: { ok: true, result: [] } });
  });

  it('installs a packed tarball from its absolute path offline, lists, runs and uninstalls it', async () => {
    const data = join(work, 'tgz');
    const plugin = { name: 'session-checkpoint-plugin-hello', version: '0.1.0', type: 'user', root: join(data, 'node_modules', 'session-checkpoint-plugin-hello') };
    const install = await cli(['plugins', 'install', tarball], data);
    expect(install).toMatchObject({ code: 0, stderr: '', json: { ok: true, result: { installed: [plugin] } } });
    expect(await cli(['plugins'], data)).toMatchObject({ code: 0, stderr: '', json: { ok: true, result: [plugin] } });
    const hello = await cli(['hello', '--store', 's.sqlite'], data);
    expect(hello).toMatchObject({ code: 0, stderr: '', json: { ok: true, result: { sessions: 1, checkpoints: 1 } } });
    const removed = await cli(['plugins', 'uninstall', 'session-checkpoint-plugin-hello'], data);
    expect(removed).toMatchObject({ code: 0, stderr: '', json: { ok: true, result: { uninstalled: [plugin] } } });
    expect(await cli(['plugins'], data)).toMatchObject({ code: 0, json: { ok: true, result: [] } });
  });

  it('installs from a relative tarball path and from a folder (copied, not linked)', async () => {
    const data = join(work, 'relative');
    const name = tarball.slice(work.length + 1);
    expect(await cli(['plugins', 'install', `./${name}`], data)).toMatchObject({ code: 0, stderr: '', json: { ok: true, result: { installed: [{ name: 'session-checkpoint-plugin-hello', type: 'user' }] } } });
    const folder = join(work, 'folder');
    const install = await cli(['plugins', 'add', EXAMPLE], folder);
    expect(install).toMatchObject({ code: 0, stderr: '', json: { ok: true, result: { installed: [{ name: 'session-checkpoint-plugin-hello', type: 'user', root: join(folder, 'node_modules', 'session-checkpoint-plugin-hello') }] } } });
    expect(spawnSync('test', ['-L', join(folder, 'node_modules', 'session-checkpoint-plugin-hello')]).status).toBe(1);
  });

  it('installs from file: specs (relative, absolute, file:// URL) from the working directory, never as a path named file:...', async () => {
    const name = tarball.slice(work.length + 1);
    for (const [dir, spec] of [
      ['file-relative', `file:./${name}`],
      ['file-absolute', `file:${tarball}`],
      ['file-url', pathToFileURL(tarball).href],
    ] as const) {
      const data = join(work, dir);
      const install = await cli(['plugins', 'install', spec], data);
      expect(install, spec).toMatchObject({ code: 0, stderr: '', json: { ok: true, result: { installed: [{ name: 'session-checkpoint-plugin-hello', version: '0.1.0', type: 'user' }] } } });
      expect(await cli(['hello', '--store', 's.sqlite'], data)).toMatchObject({ code: 0, json: { ok: true, result: { sessions: 1, checkpoints: 1 } } });
    }
  });

  it('hands an https URL to npm as a URL (offline here, so npm says it is not cached)', async () => {
    const url = await cli(['plugins', 'install', 'https://plugins.example.invalid/x-1.0.0.tgz'], join(work, 'url'));
    expect(url).toMatchObject({ code: 1, stderr: '', json: { ok: false, type: 'CommandError' } });
    expect(url.json.error).toMatch(/^npm install failed with exit code \d+; npm error /);
    expect(url.json.error).toContain('https://plugins.example.invalid/x-1.0.0.tgz');
  });

  it('lists plugins in one order on every call (--core included)', async () => {
    const data = join(work, 'order');
    expect(await cli(['plugins', 'link', EXAMPLE, '--no-install'], data)).toMatchObject({ code: 0 });
    const names = async () => ((await cli(['plugins', '--core'], data)).json.result as { name: string }[]).map((plugin) => plugin.name);
    const first = await names();
    expect(first).toEqual(['@oclif/plugin-help', '@oclif/plugin-plugins', 'session-checkpoint-plugin-hello']);
    for (let i = 0; i < 4; i++) expect(await names()).toEqual(first);
  });

  it('links, inspects and unlinks a folder', async () => {
    const data = join(work, 'link');
    const plugin = { name: 'session-checkpoint-plugin-hello', version: '0.1.0', type: 'link', root: EXAMPLE };
    expect(await cli(['plugins', 'link', EXAMPLE, '--no-install'], data)).toMatchObject({ code: 0, stderr: '', json: { ok: true, result: { linked: plugin } } });
    expect(await cli(['plugins', '--verbose'], data)).toMatchObject({ code: 0, json: { ok: true, result: [plugin] } });
    const inspect = await cli(['plugins', 'inspect', 'session-checkpoint-plugin-hello'], data);
    expect(inspect).toMatchObject({ code: 0, stderr: '', json: { ok: true, result: [{ ...plugin, commands: ['hello'], dependencies: {} }] } });
    expect(await cli(['plugins', 'unlink', 'session-checkpoint-plugin-hello'], data)).toMatchObject({ code: 0, stderr: '', json: { ok: true, result: { uninstalled: [plugin] } } });
  });

  it('reports failures as the JSON error with exit 1, usage errors with exit 2', async () => {
    const data = join(work, 'errors');
    expect(await cli(['plugins', 'install', './missing.tgz'], data)).toMatchObject({ code: 1, stderr: '', json: { ok: false, type: 'OSError', error: `[Errno 2] No such file or directory: '${join(work, 'missing.tgz')}'` } });
    expect(await cli(['plugins', 'uninstall', 'not-there'], data)).toMatchObject({ code: 1, stderr: '', json: { ok: false, type: 'CommandError', error: 'not-there is not installed' } });
    expect(await cli(['plugins', '--bogus'], data)).toMatchObject({ code: 2, stderr: '', json: { ok: false, type: 'UsageError' } });
    expect(await cli(['plugins', 'install'], data)).toMatchObject({ code: 2, stderr: '', json: { ok: false, type: 'UsageError' } });
    expect(await cli(['plugins', 'install', 'file:./nowhere.tgz'], data)).toMatchObject({ code: 1, stderr: '', json: { ok: false, type: 'OSError', error: `[Errno 2] No such file or directory: '${join(work, 'nowhere.tgz')}'` } });
    // A name npm cannot find (offline here); npm's own error lines for a failed install: the https case above.
    expect(await cli(['plugins', 'install', 'session-checkpoint-plugin-not-cached'], data)).toMatchObject({ code: 1, stderr: '', json: { ok: false, type: 'CommandError', error: 'session-checkpoint-plugin-not-cached does not exist in the registry.' } });
    expect(await cli(['plugins', 'inspect', 'not-there'], data)).toMatchObject({ code: 1, stderr: '', json: { ok: false, type: 'CommandError', error: "plugin 'not-there' is not installed" } });
    // No argument: the working directory, which holds no plugin. A sentence, not oclif's object dump.
    expect(await cli(['plugins', 'link'], data)).toMatchObject({ code: 1, stderr: '', json: { ok: false, type: 'CommandError', error: `no plugin to link at '${work}': it has no package.json (give the plugin folder: plugins link <dir>)` } });
    expect(await cli(['plugins', 'link', join(work, 'nowhere')], data)).toMatchObject({ code: 1, stderr: '', json: { ok: false, type: 'CommandError', error: `no plugin to link at '${join(work, 'nowhere')}': it has no package.json` } });
  });

  it('leaves --help to oclif (text, exit 0)', async () => {
    const help = await runCli(['plugins', 'install', '--help'], { cwd: work });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Installs a plugin into session-checkpoint\./);
  });
});

/** A plugin whose command modules export things that are not command classes. */
function writeBadPlugin(root: string): void {
  mkdirSync(join(root, 'commands'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'bad-plugin', version: '1.0.0', type: 'module', oclif: { commands: './commands' } }));
  writeFileSync(join(root, 'commands', 'object.js'), 'export default { run() { return 1; } };\n');
  writeFileSync(join(root, 'commands', 'static.js'), 'export default class NotACommand { static run() { return 1; } }\n');
}

describe('broken plugin set-ups fail with a JSON error instead of hanging or succeeding silently', () => {
  it('refuses plugin commands that are not command classes', async () => {
    const data = join(work, 'bad');
    const root = join(work, 'bad-plugin');
    writeBadPlugin(root);
    expect(await cli(['plugins', 'link', root, '--no-install'], data)).toMatchObject({ code: 0, json: { ok: true } });
    for (const id of ['object', 'static']) {
      const result = await cli([id], data);
      expect(result).toMatchObject({ code: 1, stderr: '', json: { ok: false, type: 'CommandError', error: `'${id}' of plugin bad-plugin is not a command class: a command module must export a class extending BaseCommand from @session-checkpoint/cli/plugin` } });
    }
  });

  it('refuses a FIFO as the plugin record instead of blocking on it', async () => {
    const data = join(work, 'fifo');
    mkdirSync(data, { recursive: true });
    expect(spawnSync('mkfifo', [join(data, 'package.json')]).status).toBe(0);
    const error = { ok: false, type: 'CommandError', error: `plugin record '${join(data, 'package.json')}' is a FIFO, not a regular file; remove it (plugins install and plugins link write it)` };
    for (const args of [['hello', '--store', 's.sqlite'], ['plugins'], ['--help']]) {
      const result = await runCli(args, { cwd: work, env: { SESSION_CHECKPOINT_DATA_DIR: data }, timeoutMs: 120_000 });
      expect(result.code, args.join(' ')).toBe(1);
      expect(JSON.parse(result.stdout)).toEqual(error);
    }
    // A built-in command never reads the plugin record: its own outcome.
    const get = await runCli(['get', '--store', 'missing.sqlite', '--id', '1'], { cwd: work, env: { SESSION_CHECKPOINT_DATA_DIR: data }, timeoutMs: 120_000 });
    expect([get.code, JSON.parse(get.stdout).type]).toEqual([1, 'StoreNotFoundError']);
  });

  /** Runs the CLI from a working directory that is deleted just before Node starts. */
  function fromDeletedDirectory(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
    const dir = join(tempDir('sc-gone-'), 'cwd');
    mkdirSync(dir);
    return new Promise((resolve, reject) => {
      const script = 'cd "$1" && rmdir "$1" && shift && exec "$@"';
      const child = spawn('sh', ['-c', script, 'sh', dir, process.execPath, CLI_BIN, ...args], { env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      // A hang must end the test, but no verdict depends on speed: two minutes on a loaded machine.
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout: Buffer.concat(out).toString('utf8') });
      });
    });
  }

  it('answers from a deleted working directory (Node 20 module.register would wait forever)', async () => {
    const data = join(work, 'gone');
    expect(await cli(['plugins', 'link', EXAMPLE, '--no-install'], data)).toMatchObject({ code: 0 });
    const env = { SESSION_CHECKPOINT_DATA_DIR: data, OCLIF_DISABLE_LINKED_ESM_WARNING: '1' };
    const help = await fromDeletedDirectory(['--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('USAGE');
    const unknown = await fromDeletedDirectory(['nosuch'], env);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ ok: false, type: 'UsageError' });
    const list = await fromDeletedDirectory(['plugins'], env);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ ok: true, result: [{ name: 'session-checkpoint-plugin-hello' }] });
    const hello = await fromDeletedDirectory(['hello', '--store', join(work, 's.sqlite')], env);
    expect(hello.code).not.toBeNull();
    expect(JSON.parse(hello.stdout)).toHaveProperty('ok');
    rmSync(data, { recursive: true, force: true });
  });
});
