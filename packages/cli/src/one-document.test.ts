/**
 * One JSON document per run, whatever happens: a failure that arrives after (or while) a command
 * reports its own result or error, the way a driver's late 'error' event does when a PostgreSQL
 * connection is killed under an import, must not print a second document. A linked plugin
 * plays the driver: its commands raise an unhandled failure while they run, then finish.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataHomeLinking } from './test-support/plugin-setups.js';
import { removeTempDirs, runCli, tempDir } from './test-support/run-cli.js';

let dir = '';
let home = '';

const COMMANDS: Record<string, string> = {
  // A failure outside the command's flow (as a driver's 'error' event) while it runs; then the
  // command fails itself, as its query would.
  'late-then-fail': `
    async run() {
      process.nextTick(() => { throw new Error('Connection terminated unexpectedly'); });
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('first failure');
    }`,
  // The same, but the command then succeeds.
  'late-then-ok': `
    async run() {
      process.nextTick(() => { throw new Error('Connection terminated unexpectedly'); });
      await new Promise((resolve) => setImmediate(resolve));
      return { done: true };
    }`,
};

describe('one JSON document per run', () => {
  beforeAll(() => {
    dir = tempDir('sc-one-doc-');
    const root = join(dir, 'late-plugin');
    mkdirSync(join(root, 'commands'), { recursive: true });
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'late-plugin', version: '1.0.0', type: 'module', oclif: { commands: './commands' } }));
    for (const [id, body] of Object.entries(COMMANDS)) {
      writeFileSync(join(root, 'commands', `${id}.js`), `import { BaseCommand } from '@session-checkpoint/cli/plugin';\nexport default class C extends BaseCommand {${body}\n}\n`);
    }
    home = dataHomeLinking(join(dir, 'data'), [root]);
  });

  afterAll(removeTempDirs);

  it.each(Object.keys(COMMANDS))('%s prints exactly one document', async (id) => {
    const result = await runCli([id, '--store', 's.sqlite'], { cwd: dir, env: { XDG_DATA_HOME: home } });
    expect(result.stderr).toBe('');
    // One document: the output parses as a single JSON value, with one top-level "ok".
    expect(result.stdout.match(/^ {2}"ok"/gmu)).toHaveLength(1);
    const parsed = JSON.parse(result.stdout) as { ok: boolean };
    expect(result.code).toBe(parsed.ok ? 0 : 1);
    // The command's own outcome is the document; the stray failure is a warning (--verbose).
    if (id === 'late-then-ok') expect(parsed).toEqual({ ok: true, result: { done: true } });
    else expect(parsed).toEqual({ ok: false, error: 'first failure', type: 'InternalError' });
    const verbose = await runCli([id, '--store', 's.sqlite', '--verbose'], { cwd: dir, env: { XDG_DATA_HOME: home } });
    expect(verbose.stdout).toBe(result.stdout);
    expect(verbose.stderr).toContain('Connection terminated unexpectedly');
  });
});

describe('--version', () => {
  it('prints one JSON document too, with the package version and the user agent oclif printed as text', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    const result = await runCli(['--version'], { cwd: tempDir('sc-version-') });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const platform = `${process.platform}-${process.arch}`;
    expect(JSON.parse(result.stdout)).toEqual({
      ok: true,
      result: { name: '@session-checkpoint/cli', version, node: process.version, platform, userAgent: `@session-checkpoint/cli/${version} ${platform} node-${process.version}` },
    });
  });
});
