/**
 * A built-in command always runs on its own route, whatever plugins are installed: every call here
 * gives the same stdout, stderr and exit code with no plugin, with the example plugin linked, and
 * with a plugin that declares a hook. Built-ins never load oclif; help and plugin commands do, and
 * plugin hooks run for those only (docs/plugins.md).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTINS } from './commands/index.js';
import { EXAMPLE_PLUGIN, dataHomeLinking, hookPlugin, pluginSetups } from './test-support/plugin-setups.js';
import { removeTempDirs, runCli, runCliBatch, tempDir, type CliResult } from './test-support/run-cli.js';

const CALLS: string[][] = [
  ['create', '--store', 's.sqlite', '--session-id', 'a', '--payload-file', 'p.json', '--created-at', '2026-01-01T00:00:00Z'],
  ['get', '--store', 's.sqlite', '--id', '1'],
  ['get', '--store', 's.sqlite', '--id=1'],
  ['get', '--store', 's.sqlite', '--id', '99'],
  ['get', '--store', 's.sqlite', '--id', 'x'],
  ['get', '--store', 's.sqlite'],
  ['get', 'extra', '--store', 's.sqlite', '--id', '1'],
  ['get', '--store', 's.sqlite', '--id', '1', 'extra'],
  ['get', '--id', '1'],
  ['get', '--store', 's.sqlite', '--id', '1', '--valueOf'],
  ['get', '--store', 's.sqlite', '--id', '1', '--constructor'],
  ['get', '--store', 's.sqlite', '--id', '1', '--toString=1'],
  ['get', '--store', 's.sqlite', '--id', '1', '--__proto__'],
  ['delete', '--store', 's.sqlite', '--id', '1', '--apply', '--hasOwnProperty'],
  ['get', '--store', 's.sqlite', '--id', '1', '-h'],
  ['list', '--store', 's.sqlite'],
  ['list', '--store', 's.sqlite', '--bogus'],
  ['list', '--store', 'missing.sqlite'],
  ['sessions', '--store', 's.sqlite'],
  ['sessions', '--store', 's.sqlite', '--namespace', 'other'],
  ['verify', '--store', 's.sqlite'],
  ['verify', '--store', 's.sqlite', '--namespace=default'],
  ['history', '--store', 's.sqlite', '--session-id', 'a', '--limit', '1'],
  ['history', '--store', 's.sqlite'],
  ['init', '--store', 'other.sqlite'],
  ['keys', 'new', '--output', 'k.keys', '--id', 'k1'],
  ['keys', 'new', '--output', 'k.keys', '--id', 'k1'],
  ['rekey', '--store', 's.sqlite', '--new-key-file', 'k.keys'],
  ['init', '--store', 'other.sqlite', '--schema', 'x'],
  ['export', '--store', 's.sqlite', '--output', 'out/all.json'],
  ['export', '--store', 's.sqlite', '--output', 's.sqlite'],
  ['import', '--store', 'copy.sqlite', '--input', 'out/all.json'],
  ['import', '--store', 'copy.sqlite', '--input', 'out/all.json', '--apply'],
  ['import', '--store', 'copy.sqlite', '--input', 'missing.json', '--apply'],
  ['migrate', '--from', 'sqlite:missing.db', '--store', 's.sqlite'],
  ['migrate', '--from', 'mysql://x/y', '--store', 's.sqlite'],
  ['prune', '--store', 'copy.sqlite', '--keep-latest', '0'],
  ['prune', '--store', 'copy.sqlite', '--apply'],
  ['prune', '--store', 'copy.sqlite', '--older-than', '2027-01-01T00:00:00Z', '--apply'],
  ['prune', '--store', 'copy.sqlite', '--idle-for', 'soon'],
  ['stats', '--store', 's.sqlite'],
  ['stats', '--store', 'missing.sqlite'],
  ['pin', '--store', 's.sqlite', '--session-id', 'a'],
  ['pin', '--store', 's.sqlite'],
  ['unpin', '--store', 's.sqlite', '--session-id', 'a'],
  ['compact', '--store', 'copy.sqlite'],
  ['delete', '--store', 's.sqlite', '--id', '1'],
  ['create', '--store=s.sqlite', '--session-id=b', '--payload-file=p.json', '--source-ref', 'r1', '--kind', 'auto', '--name', 'n1', '--created-at', '2026-01-01T00:00:01Z'],
  ['create', '--store', 's.sqlite', '--session-id', 'b', '--payload-file', 'p.json', '--source-ref', 'r1'],
  ['create', '--store', 's.sqlite', '--session-id', 'b', '--payload-file', 'p.json', '--created-at', '2026-01-02T03:04:05+01:00', '--namespace', 'other'],
  ['create', '--store', 's.sqlite', '--session-id', 'b', '--payload-file', 'p.json', '--created-at', 'yesterday'],
  ['create', '--store', 's.sqlite', '--session-id', 'b', '--payload-file', 'missing.json'],
  ['create', '--store', 's.sqlite', '--session-id', 'b', '--payload-file', 'p.json', '--dry-run', '--created-at', '2026-01-02T03:04:05Z'],
  ['create', '--store', 's.sqlite', '--session-id', 'b', '--payload-file', 'p.json', '--dry-run=true'],
  ['create', '--session-id', 'b', '--payload-file', 'p.json', '--dry-run'],
  ['create', '--store', 'new/deeper.sqlite', '--session-id', 'c', '--payload-file', 'p.json', '--verbose', '--created-at', '2026-01-01T00:00:02Z'],
  ['get', '--id', '0_2', '--store', 's.sqlite'],
  ['get', '--store', 's.sqlite', '--id', '3', '--namespace', 'other'],
  ['get', '--store', 's.sqlite', '--id', '3', '--namespace=other'],
  ['get', '--store', 's.sqlite', '--id', '1', '--id', '2'],
  ['get', '--store', 's.sqlite', '--id', '-1'],
  ['get', '--store', 's.sqlite', '--id', '99999999999999999999'],
  ['get', '--store', 's.sqlite', '--id', '2', '--schema', 'x'],
  ['list', '--store', 's.sqlite', '--limit', '1', '--offset', '1'],
  ['list', '--store', 's.sqlite', '--session-id', 'b'],
  ['list', '--store', 's.sqlite', '--namespace', 'other', '--verbose'],
  ['list', '--store', 's.sqlite', '--limit', '0'],
  ['list', '--store', 's.sqlite', '--namespace='],
  ['list', '--store', 's.sqlite', '--database-url', 'postgres://u@127.0.0.1:1/x'],
  ['list', '--store', 'p.json'],
  ['threads', '--store', 's.sqlite'],
  ['threads', '--store', 's.sqlite', '--namespace', 'other'],
  ['state', '--store', 's.sqlite', '--thread', 'a'],
  ['state', '--store', 's.sqlite', '--thread', 'a', '--path', '/nothing'],
  ['state', '--store', 's.sqlite', '--thread', 'nobody'],
  ['diff', '--store', 's.sqlite', '--thread', 'b', '--from', '2', '--to', '4'],
  ['diff', '--store', 's.sqlite', '--thread', 'a', '--first-change', '/step'],
  ['diff', '--store', 's.sqlite', '--thread', 'a', '--from', '1'],
  ['timeline', '--store', 's.sqlite', '--thread', 'a', '--limit', '1'],
  ['timeline', '--store', 's.sqlite', '--thread', 'nobody'],
  ['state', '--store', 's.sqlite', '--thread', 'a', '--step', '1'],
  ['inspect', '--store', 'missing.sqlite', '--no-open'],
  ['inspect', '--store', 's.sqlite', '--port', '70000', '--no-open'],
  ['hello', '--store', 's.sqlite'],
  ['frobnicate'],
  [],
];

describe('every path gives identical results', () => {
  const outputs = new Map<string, CliResult[]>();
  let work = '';
  let marker = '';

  beforeAll(async () => {
    work = tempDir('sc-paths-');
    marker = join(work, 'init-hook-ran');
    for (const setup of pluginSetups(work, marker)) {
      const cwd = join(work, setup.name.replace(/\W+/gu, '-'));
      mkdirSync(cwd);
      writeFileSync(join(cwd, 'p.json'), '{"step": 1}');
      outputs.set(setup.name, await runCliBatch(CALLS.map((args) => ({ args, cwd, env: setup.env }))));
    }
  });

  afterAll(removeTempDirs);

  it("ran the hook plugin's init hook for the calls oclif runs (help, plugin commands)", () => {
    expect(existsSync(marker)).toBe(true);
  });

  it('covers every built-in command', () => {
    const id = (args: string[]) => (BUILTINS.some((command) => command.id === `${args[0]}:${args[1]}`) ? `${args[0]}:${args[1]}` : args[0]);
    expect(new Set(CALLS.map(id))).toEqual(new Set([...BUILTINS.map((command) => command.id), 'hello', 'frobnicate', undefined]));
  });

  it.each(CALLS.map((args, i) => [args.join(' '), i] as const))('%s', (_name, i) => {
    const [none, example, hook] = [...outputs.values()].map((results) => results[i]!);
    const normalise = (text: string) => text.replaceAll(work, '<work>').replace(/<work>\/[\w-]+\//gu, '<dir>/');
    // The example plugin adds `hello`: the unknown-command message lists it where it is installed.
    const withoutHello = (text: string) => text.replace(", 'hello'", '');
    expect(normalise(example!.stdout)).toBe(normalise(hook!.stdout));
    expect(example!.code).toBe(hook!.code);
    if (CALLS[i]![0] !== 'hello') {
      expect(withoutHello(normalise(none!.stdout))).toBe(withoutHello(normalise(example!.stdout)));
      expect(none!.code).toBe(example!.code);
    }
    for (const result of [none, example, hook]) expect(result!.stderr).toBe('');
  });
});

describe('which route a call takes', () => {
  let dir = '';
  let log = '';
  let hook = '';

  beforeAll(async () => {
    dir = tempDir('sc-which-path-');
    [log, hook] = [join(dir, 'loaded.log'), join(dir, 'record-loads.cjs')];
    // Every CommonJS module the call loaded is in require.cache when it exits (oclif is CommonJS).
    writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(log)}, Object.keys(require.cache).join('\\n')));\n`);
    writeFileSync(join(dir, 'p.json'), '{"step": 1}');
    expect((await runCli(['create', '--store', 's.sqlite', '--session-id', 'a', '--payload-file', 'p.json'], { cwd: dir })).code).toBe(0);
  });

  afterAll(removeTempDirs);

  /** Whether the call loaded oclif, and its result. */
  async function usesOclif(args: string[], env: Record<string, string> = {}): Promise<{ oclif: boolean; result: CliResult }> {
    writeFileSync(log, '');
    const result = await runCli(args, { cwd: dir, env: { ...env, NODE_OPTIONS: `--require ${hook}` } });
    expect(result.stderr).toBe('');
    const paths = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    expect(paths.some((path) => path.endsWith('/dist/fast/main.cjs'))).toBe(true);
    return { oclif: paths.some((path) => path.includes('/@oclif/')), result };
  }

  /** A linked plugin whose manifest declares `command` with `aliases`. */
  function manifestPlugin(name: string, command: string, aliases: string[]): string {
    const root = join(dir, name);
    mkdirSync(join(root, 'commands'), { recursive: true });
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', oclif: { commands: './commands' } }));
    writeFileSync(join(root, 'oclif.manifest.json'), JSON.stringify({ version: '1.0.0', commands: { [command]: { id: command, aliases, flags: {}, args: {} } } }));
    writeFileSync(join(root, 'commands', `${command}.js`), `export default class { static run() { throw new Error('the plugin ran'); } }\n`);
    return root;
  }

  it.each([
    ['get', '--store', 's.sqlite', '--id', '1'],
    ['list', '--store', 's.sqlite', '--limit', '2'],
    ['create', '--store', 's.sqlite', '--session-id', 'd', '--payload-file', 'p.json'],
    ['get', '--store', 's.sqlite', '--id', '-1'],
    ['list', '--store', 's.sqlite', '--bogus'],
    ['get', '--store', 's.sqlite', '--id', '1', '--valueOf'],
  ])('%s never loads oclif, with or without plugins', async (...args) => {
    const hooked = dataHomeLinking(join(dir, 'hooked-builtin'), [hookPlugin(join(dir, 'hook-builtin'), join(dir, 'hook-builtin-ran')), EXAMPLE_PLUGIN]);
    const envs: Record<string, string>[] = [{}, { XDG_DATA_HOME: dataHomeLinking(join(dir, 'example'), [EXAMPLE_PLUGIN]) }, { XDG_DATA_HOME: hooked }];
    for (const env of envs) {
      expect((await usesOclif(args, env)).oclif).toBe(false);
    }
    expect(existsSync(join(dir, 'hook-builtin-ran'))).toBe(false);
  });

  it('runs help and plugin commands through oclif, with the plugins\' hooks', async () => {
    const marker = join(dir, 'hook-ran');
    const home = dataHomeLinking(join(dir, 'hooked'), [hookPlugin(join(dir, 'hook-plugin'), marker), EXAMPLE_PLUGIN]);
    expect((await usesOclif(['get', '--store', 's.sqlite', '--id', '1'], { XDG_DATA_HOME: home })).oclif).toBe(false);
    expect(existsSync(marker)).toBe(false);
    const hello = await usesOclif(['hello', '--store', 's.sqlite'], { XDG_DATA_HOME: home });
    expect([hello.oclif, hello.result.code, existsSync(marker)]).toEqual([true, 0, true]);
    const help = await usesOclif(['get', '--help']);
    expect([help.oclif, help.result.code]).toEqual([true, 0]);
    // oclif colours help when the environment asks for colour (FORCE_COLOR under nx).
    expect(help.result.stdout.replace(/\u001b\[[0-9;]*m/gu, '')).toContain('--id=<value>');
  });

  it('runs the built-in when a plugin declares a command or alias of the same id', async () => {
    const byAlias = dataHomeLinking(join(dir, 'alias'), [manifestPlugin('alias-plugin', 'fetch', ['get'])]);
    const byId = dataHomeLinking(join(dir, 'same-id'), [manifestPlugin('id-plugin', 'sessions', [])]);
    for (const [args, home] of [[['get', '--store', 's.sqlite', '--id', '1'], byAlias], [['sessions', '--store', 's.sqlite'], byId]] as const) {
      const { oclif, result } = await usesOclif([...args], { XDG_DATA_HOME: home });
      expect([oclif, result.code, JSON.parse(result.stdout).ok]).toEqual([false, 0, true]);
    }
  });
});
