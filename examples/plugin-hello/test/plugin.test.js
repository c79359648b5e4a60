// End to end through the real `session-checkpoint` binary, as a plugin author would test:
// link the plugin (and, separately, install its packed tarball the way `plugins install` does),
// then run its command. Set SESSION_CHECKPOINT_BIN to the CLI's bin/run.cjs to test against a
// checkout; otherwise `session-checkpoint` on PATH is used.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const PLUGIN_DIR = fileURLToPath(new URL('..', import.meta.url));
const BIN = process.env.SESSION_CHECKPOINT_BIN;
const work = realpathSync(mkdtempSync(join(tmpdir(), 'sc-plugin-hello-')));

function run(command, args, { env = {}, cwd = work } = {}) {
  const base = { ...process.env, XDG_DATA_HOME: join(work, 'data'), XDG_CONFIG_HOME: join(work, 'config'), XDG_CACHE_HOME: join(work, 'cache'), OCLIF_DISABLE_LINKED_ESM_WARNING: '1' };
  for (const key of ['NODE_ENV', 'SESSION_CHECKPOINT_STORE', 'SESSION_CHECKPOINT_DATABASE_URL', 'SESSION_CHECKPOINT_DATA_DIR']) delete base[key];
  const result = spawnSync(command, args, { cwd, env: { ...base, ...env }, encoding: 'utf8', input: '' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function cli(args, env) {
  return BIN ? run(process.execPath, [resolve(BIN), ...args], { env }) : run('session-checkpoint', args, { env });
}

/** Every package directory under `dir/node_modules` (scoped ones as `@scope/name`). */
function installed(dir) {
  const root = join(dir, 'node_modules');
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) => (name.startsWith('@') ? readdirSync(join(root, name)).map((sub) => `${name}/${sub}`) : [name]));
}

describe('session-checkpoint-plugin-hello', () => {
  before(() => {
    writeFileSync(join(work, 'p.json'), '{"step": 1}');
    for (const session of ['a', 'a', 'b']) {
      const created = cli(['create', '--store', 's.sqlite', '--namespace', 'app', '--session-id', session, '--payload-file', 'p.json']);
      assert.equal(created.code, 0, created.stdout + created.stderr);
    }
  });

  after(() => rmSync(work, { recursive: true, force: true }));

  describe('linked with `plugins link`', () => {
    before(() => {
      const linked = cli(['plugins', 'link', PLUGIN_DIR, '--no-install']);
      assert.equal(linked.code, 0, linked.stdout + linked.stderr);
      // oclif loads the new plugin's commands while linking: they must find the CLI already.
      assert.doesNotMatch(linked.stderr, /ModuleLoadError|MODULE_NOT_FOUND/);
    });

    it('is listed and adds no modules to the plugin or the data directory', () => {
      const plugins = cli(['plugins']);
      assert.equal(plugins.code, 0);
      assert.deepEqual(JSON.parse(plugins.stdout), { ok: true, result: [{ name: 'session-checkpoint-plugin-hello', version: '0.1.0', type: 'link', root: PLUGIN_DIR.replace(/\/$/, '') }] });
      assert.deepEqual(installed(PLUGIN_DIR), []);
      assert.deepEqual(installed(join(work, 'data', 'session-checkpoint')), []);
    });

    it('runs with the store flags and JSON output of built-in commands', () => {
      const result = cli(['hello', '--store', 's.sqlite', '--namespace', 'app']);
      assert.equal(result.stderr, '');
      assert.equal(result.code, 0);
      assert.deepEqual(JSON.parse(result.stdout), {
        ok: true,
        result: { greeting: 'Hello from session-checkpoint-plugin-hello', store: join(work, 's.sqlite'), namespace: 'app', sessions: 2, checkpoints: 3 },
      });
    });

    it('takes the store from the environment', () => {
      const result = cli(['hello'], { SESSION_CHECKPOINT_STORE: 's.sqlite' });
      assert.equal(result.code, 0, result.stdout);
      assert.deepEqual(JSON.parse(result.stdout).result.checkpoints, 0);
    });

    it('reports failures with the JSON error contract', () => {
      const missing = cli(['hello', '--store', 'missing.sqlite']);
      assert.equal(missing.stderr, '');
      assert.equal(missing.code, 1);
      assert.equal(JSON.parse(missing.stdout).type, 'StoreNotFoundError');
      const usage = cli(['hello', '--store', 's.sqlite', '--bogus']);
      assert.equal(usage.code, 2);
      assert.equal(JSON.parse(usage.stdout).type, 'UsageError');
    });

    it('shows its help with examples', () => {
      const help = cli(['hello', '--help']);
      assert.equal(help.code, 0);
      assert.match(help.stdout, /\$ session-checkpoint hello --store app\.sqlite/);
    });

    it('leaves built-in commands unchanged', () => {
      const got = cli(['get', '--store', 's.sqlite', '--namespace', 'app', '--id', '1']);
      assert.equal(got.code, 0, got.stdout);
      assert.deepEqual(JSON.parse(got.stdout).result.payload, { step: 1 });
    });

    it('is gone after `plugins unlink`', () => {
      assert.equal(cli(['plugins', 'unlink', 'session-checkpoint-plugin-hello']).code, 0);
      const result = cli(['hello', '--store', 's.sqlite']);
      assert.equal(result.code, 2);
      assert.equal(JSON.parse(result.stdout).type, 'UsageError');
    });
  });

  describe('installed from its packed tarball', () => {
    // `plugins install <path>` installs from the path (npm in the data directory with
    // `--omit dev`); offline, since the plugin has no registry dependency.
    const dataDir = join(work, 'installed-data');
    const env = { SESSION_CHECKPOINT_DATA_DIR: dataDir, npm_config_offline: 'true' };

    before(() => {
      const packed = run('npm', ['pack', PLUGIN_DIR, '--pack-destination', work, '--silent']);
      assert.equal(packed.code, 0, packed.stderr);
      const install = cli(['plugins', 'install', join(work, packed.stdout.trim())], env);
      assert.equal(install.code, 0, install.stdout + install.stderr);
      assert.equal(JSON.parse(install.stdout).result.installed[0].name, 'session-checkpoint-plugin-hello');
    });

    it('adds the plugin and nothing else: no CLI, no oclif, no driver', () => {
      assert.deepEqual(installed(dataDir), ['session-checkpoint-plugin-hello']);
    });

    it('runs on the host CLI', () => {
      const result = cli(['hello', '--store', 's.sqlite', '--namespace', 'app'], env);
      assert.equal(result.stderr, '');
      assert.equal(result.code, 0, result.stdout);
      assert.equal(JSON.parse(result.stdout).result.checkpoints, 3);
    });
  });
});
