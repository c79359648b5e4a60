/**
 * Nothing on stderr unless asked: warnings that oclif, Node or a driver would print (a broken or
 * unreadable plugin folder, a linked ESM plugin, pg's SECURITY WARNING for sslmode=require) never
 * reach stderr, and the command's JSON is still the only output. With `--verbose` (or
 * SESSION_CHECKPOINT_VERBOSE=1) they do appear, which shows each scenario really warns.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookPlugin } from './test-support/plugin-setups.js';
import { removeTempDirs, runCli, tempDir } from './test-support/run-cli.js';

const EXAMPLE_PLUGIN = fileURLToPath(new URL('../../../examples/plugin-hello', import.meta.url));

let dir: string;

/** An XDG data home whose session-checkpoint plugin folder is set up by `make`. */
function dataHome(name: string, make: (pluginDir: string) => void): string {
  const home = join(dir, name);
  mkdirSync(home);
  make(join(home, 'session-checkpoint'));
  return home;
}

interface Scenario {
  name: string;
  args: string[];
  env: () => Record<string, string>;
  /** The JSON `ok` expected on stdout. */
  ok: boolean;
  /**
   * What `--verbose` shows on stderr for this scenario; `undefined` where nothing warns any more
   * (the check that stderr stays empty by default still holds).
   */
  warning: RegExp | undefined;
  skip?: boolean;
}

const PG = process.env.SC_PG_URL;
const SCENARIOS: Scenario[] = [
  {
    name: 'a plugin folder with a broken package.json',
    // `plugins` loads oclif's Config, which reads the plugin folder (a built-in command never does).
    args: ['plugins'],
    env: () => ({ XDG_DATA_HOME: dataHome('broken', (p) => { mkdirSync(p); writeFileSync(join(p, 'package.json'), '{broken'); }) }),
    ok: true,
    warning: /JSON/u,
  },
  {
    name: 'a plugin folder whose package.json is a directory',
    // `plugins` loads oclif's Config, which reads the plugin folder (a built-in command never does).
    args: ['plugins'],
    env: () => ({ XDG_DATA_HOME: dataHome('pkgdir', (p) => mkdirSync(join(p, 'package.json'), { recursive: true })) }),
    ok: true,
    warning: /EISDIR/u,
  },
  {
    name: 'a plugin folder that is a regular file',
    // `plugins` loads oclif's Config, which reads the plugin folder (a built-in command never does).
    args: ['plugins'],
    env: () => ({ XDG_DATA_HOME: dataHome('file', (p) => writeFileSync(p, 'not a folder')) }),
    ok: true,
    // oclif finds no plugin record in a file and says nothing.
    warning: undefined,
  },
  {
    // root reads any folder whatever its mode, so this one only warns for other users.
    name: 'an unreadable plugin folder',
    // `plugins` loads oclif's Config, which reads the plugin folder (a built-in command never does).
    args: ['plugins'],
    env: () => ({
      XDG_DATA_HOME: dataHome('unreadable', (p) => {
        mkdirSync(p);
        writeFileSync(join(p, 'package.json'), '{}');
        chmodSync(p, 0);
      }),
    }),
    ok: true,
    warning: /EACCES/u,
    skip: process.getuid?.() === 0,
  },
  {
    // oclif warns when it loads a linked ES module plugin (the second plugin, with a hook, is
    // from the time plugin commands could start without oclif; it changes nothing now).
    name: 'a linked ESM plugin',
    args: ['hello', '--store', 's.sqlite'],
    env: () => ({
      XDG_DATA_HOME: dataHome('linked', (p) => {
        mkdirSync(p);
        const plugin = { name: '@session-checkpoint/plugin-hello', root: EXAMPLE_PLUGIN, type: 'link' };
        const hooked = { name: 'hook-plugin', root: hookPlugin(join(dir, 'hook-plugin'), join(dir, 'hook-ran')), type: 'link' };
        writeFileSync(join(p, 'package.json'), JSON.stringify({ name: '@session-checkpoint/cli', private: true, oclif: { schema: 1, plugins: [plugin, hooked] } }));
      }),
    }),
    ok: true,
    warning: /linked ESM module/u,
  },
  {
    name: 'a PostgreSQL URL with sslmode=require',
    args: ['list', '--database-url', 'postgres://postgres@127.0.0.1:5432/test?sslmode=require'],
    env: () => ({}),
    ok: false,
    // store-kysely passes sslmode=require to pg as verify-full (pg 8's meaning), so pg no longer
    // prints its SECURITY WARNING at all; the guard would hide it.
    warning: undefined,
    skip: PG === undefined,
  },
];

describe('stderr stays empty unless --verbose', () => {
  beforeAll(async () => {
    dir = tempDir('sc-quiet-');
    const made = await runCli(['create', '--store', 's.sqlite', '--session-id', 's', '--payload-file', '-'], { cwd: dir, input: '{"a": 1}' });
    expect(made.code, made.stdout).toBe(0);
  });
  afterAll(removeTempDirs);

  for (const s of SCENARIOS) {
    it.skipIf(s.skip === true)(s.name, async () => {
      const env = s.env();
      const quiet = await runCli(s.args, { cwd: dir, env });
      expect(quiet.stderr).toBe('');
      const parsed = JSON.parse(quiet.stdout) as { ok: boolean; type?: string };
      expect(parsed.ok, quiet.stdout).toBe(s.ok);
      expect(quiet.code).toBe(s.ok ? 0 : 1);
      const loud = await runCli([...s.args, '--verbose'], { cwd: dir, env });
      expect(JSON.parse(loud.stdout)).toEqual(parsed);
      const byEnv = await runCli(s.args, { cwd: dir, env: { ...env, SESSION_CHECKPOINT_VERBOSE: '1' } });
      expect(JSON.parse(byEnv.stdout)).toEqual(parsed);
      if (s.warning !== undefined) {
        expect(loud.stderr).toMatch(s.warning);
        expect(byEnv.stderr).toMatch(s.warning);
      }
    });
  }
});
