/**
 * The fast path (src/fast-path.ts) must be invisible: every call gives the same stdout, stderr and
 * exit code whether it runs there (no plugin installed) or through oclif's full configuration
 * (forced here by a linked plugin that adds no command). Runs the real binary both ways.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST_COMMAND_IDS } from './fast-path.js';
import { removeTempDirs, runCli, tempDir } from './test-support/run-cli.js';

const work = tempDir('sc-fast-path-');
const fastData = join(work, 'fast-data');
const slowData = join(work, 'slow-data');

const marker = join(work, 'init-hook-ran');

/**
 * A linked plugin with no commands: it changes nothing but sends every call through oclif. Its
 * `init` hook leaves a marker, which shows that oclif did load it.
 */
function linkEmptyPlugin(): void {
  const root = join(work, 'empty-plugin');
  mkdirSync(join(root, 'commands'), { recursive: true });
  writeFileSync(join(root, 'init.js'), `import { writeFileSync } from 'node:fs';\nexport default async function () { writeFileSync(${JSON.stringify(marker)}, ''); }\n`);
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'empty-plugin', version: '1.0.0', type: 'module', oclif: { commands: './commands', hooks: { init: './init.js' } } }));
  // oclif's data directory is $XDG_DATA_HOME/<dirname>; plugins are recorded in its package.json.
  mkdirSync(join(slowData, 'session-checkpoint'), { recursive: true });
  writeFileSync(join(slowData, 'session-checkpoint', 'package.json'), JSON.stringify({ private: true, oclif: { schema: 1, plugins: [{ name: 'empty-plugin', type: 'link', root }] } }));
}

const CALLS: string[][] = [
  ['create', '--store', 's.sqlite', '--session-id', 'a', '--payload-file', 'p.json'],
  ['get', '--store', 's.sqlite', '--id', '1'],
  ['get', '--store', 's.sqlite', '--id=1'],
  ['get', '--store', 's.sqlite', '--id', '99'],
  ['get', '--store', 's.sqlite', '--id', 'x'],
  ['get', '--store', 's.sqlite'],
  ['get', 'extra', '--store', 's.sqlite', '--id', '1'],
  ['get', '--store', 's.sqlite', '--id', '1', 'extra'],
  ['get', '--id', '1'],
  ['list', '--store', 's.sqlite'],
  ['list', '--store', 's.sqlite', '--bogus'],
  ['list', '--store', 'missing.sqlite'],
  ['sessions', '--store', 's.sqlite'],
  ['verify', '--store', 's.sqlite'],
  ['delete', '--store', 's.sqlite', '--id', '1'],
  // Shapes the direct path (src/direct/) takes or declines; either way the result must not change.
  ['create', '--store=s.sqlite', '--session-id=b', '--payload-file=p.json', '--source-ref', 'r1', '--kind', 'auto', '--name', 'n1'],
  ['create', '--store', 's.sqlite', '--session-id', 'b', '--payload-file', 'p.json', '--source-ref', 'r1'],
  ['create', '--store', 's.sqlite', '--session-id', 'b', '--payload-file', 'p.json', '--created-at', '2026-01-02T03:04:05+01:00', '--namespace', 'other'],
  ['create', '--store', 's.sqlite', '--session-id', 'b', '--payload-file', 'p.json', '--created-at', 'yesterday'],
  ['create', '--store', 's.sqlite', '--session-id', 'b', '--payload-file', 'missing.json'],
  ['create', '--store', 's.sqlite', '--session-id', 'b', '--payload-file', 'p.json', '--dry-run', '--created-at', '2026-01-02T03:04:05Z'],
  ['create', '--store', 's.sqlite', '--session-id', 'b', '--payload-file', 'p.json', '--dry-run=true'],
  ['create', '--session-id', 'b', '--payload-file', 'p.json', '--dry-run'],
  ['create', '--store', 'new/deeper.sqlite', '--session-id', 'c', '--payload-file', 'p.json', '--verbose'],
  ['get', '--id', '0_2', '--store', 's.sqlite'],
  ['get', '--store', 's.sqlite', '--id', '2', '--namespace', 'other'],
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
];

describe('fast path and oclif path give identical results', () => {
  beforeAll(async () => {
    linkEmptyPlugin();
    for (const dir of ['fast', 'slow']) {
      mkdirSync(join(work, dir));
      writeFileSync(join(work, dir, 'p.json'), '{"step": 1}');
    }
  }, 120_000);

  afterAll(removeTempDirs);

  it.each(CALLS.map((args) => [args.join(' '), args]))('%s', async (_name, args) => {
    // Separate stores, same history: each side has run the same calls before this one.
    const fast = await runCli(args as string[], { cwd: join(work, 'fast'), env: { XDG_DATA_HOME: fastData } });
    const slow = await runCli(args as string[], { cwd: join(work, 'slow'), env: { XDG_DATA_HOME: slowData, OCLIF_DISABLE_LINKED_ESM_WARNING: '1' } });
    const normalise = (text: string, side: string) => text.replaceAll(join(work, side), '<dir>').replace(/"(latest_)?created_at": "[^"]+"/g, '"$1created_at": "<t>"').replace(/"name": "checkpoint_[^"]+"/g, '"name": "<n>"');
    expect(normalise(fast.stdout, 'fast')).toBe(normalise(slow.stdout, 'slow'));
    expect(fast.stderr).toBe(slow.stderr);
    expect(fast.code).toBe(slow.code);
  });

  it('sent the calls with a plugin installed through oclif', () => {
    expect(existsSync(marker)).toBe(true);
  });
});

describe('fast path command table', () => {
  it('lists every built-in command of the manifest', () => {
    const manifest = JSON.parse(readFileSync(new URL('../oclif.manifest.json', import.meta.url), 'utf8')) as { commands: Record<string, unknown> };
    expect([...FAST_COMMAND_IDS].sort()).toEqual(Object.keys(manifest.commands).sort());
  });
});

describe('which path a call takes', () => {
  // Made in beforeAll: the first block's afterAll removes every temp dir made before it runs.
  let dir = '';
  let data = '';
  let log = '';
  let hook = '';

  beforeAll(async () => {
    dir = tempDir('sc-which-path-');
    [data, log, hook] = [join(dir, 'data'), join(dir, 'loaded.log'), join(dir, 'record-loads.cjs')];
    // The CLI's bundle is CommonJS: every module it loaded is in require.cache when it exits.
    writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(log)}, Object.keys(require.cache).join('\\n')));\n`);
    writeFileSync(join(dir, 'p.json'), '{"step": 1}');
    expect((await runCli(['create', '--store', 's.sqlite', '--session-id', 'a', '--payload-file', 'p.json'], { cwd: dir, env: { XDG_DATA_HOME: data } })).code).toBe(0);
  }, 120_000);

  afterAll(removeTempDirs);

  /** Runs a call with a preload that records every CommonJS module loaded; returns their paths. */
  async function loadedModules(args: string[]): Promise<string[]> {
    writeFileSync(log, '');
    const result = await runCli(args, { cwd: dir, env: { XDG_DATA_HOME: data, NODE_OPTIONS: `--require ${hook}` } });
    expect(result.stderr).toBe('');
    return readFileSync(log, 'utf8').split('\n').filter(Boolean);
  }
  const usesOclif = (paths: string[]) => paths.some((path) => /\/@oclif\/|\/base-command-[^/]*\.cjs$/.test(path));

  it.each([
    ['get', '--store', 's.sqlite', '--id', '1'],
    ['list', '--store', 's.sqlite', '--limit', '2'],
    ['create', '--store', 's.sqlite', '--session-id', 'd', '--payload-file', 'p.json'],
  ])('%s runs without loading oclif', async (...args) => {
    const paths = await loadedModules(args);
    expect(paths.some((path) => path.endsWith('/dist/fast/main.cjs'))).toBe(true);
    expect(usesOclif(paths)).toBe(false);
  });

  it.each([
    ['get', '--store', 's.sqlite', '--id', '-1'],
    ['list', '--store', 's.sqlite', '--bogus'],
    ['sessions', '--store', 's.sqlite'],
  ])('%s is declined by the direct path and runs through oclif', async (...args) => {
    expect(usesOclif(await loadedModules(args))).toBe(true);
  });
});
