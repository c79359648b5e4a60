/**
 * Plugin commands are oclif commands on BaseCommand (src/base-command.ts), run by oclif with its
 * real Config: each call of a probe plugin prints one JSON document (or nothing, for
 * `this.exit()`), with the exit code and error type of the CLI's contract, and nothing on stderr
 * unless `--verbose`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataHomeLinking } from './test-support/plugin-setups.js';
import { removeTempDirs, runCli, runCliBatch, tempDir, type CliResult } from './test-support/run-cli.js';

/** The probe plugin's commands: each exercises one member of BaseCommand. */
const PROBE_COMMANDS: Record<string, string> = {
  'probe-flags': `import { BaseCommand, Flags, integerFlag } from '@session-checkpoint/cli/plugin';
export default class ProbeFlags extends BaseCommand {
  static flags = { label: Flags.string({ required: true }), loud: Flags.boolean(), count: integerFlag({ default: 3 }) };
  async run() { return { flags: this.flags, args: this.args, id: this.id }; }
}`,
  'probe-store': `import { BaseCommand, namespaceFlag } from '@session-checkpoint/cli/plugin';
export default class ProbeStore extends BaseCommand {
  static flags = { namespace: namespaceFlag() };
  async run() { const store = await this.openStore(); return { sessions: (await store.sessions({ namespace: this.flags.namespace })).length, where: this.storeLocation() }; }
}`,
  'probe-sealed': `import { BaseCommand } from '@session-checkpoint/cli/plugin';
export default class ProbeSealed extends BaseCommand {
  async run() { const store = await this.openStore(); return { keys: store.keyIds ?? null, payload: (await store.get(1, { namespace: 'app' })).payload }; }
}`,
  'probe-error': `import { BaseCommand } from '@session-checkpoint/cli/plugin';
export default class ProbeError extends BaseCommand {
  async run() { this.error('the probe failed on purpose', { exit: 3 }); }
}`,
  'probe-usage': `import { BaseCommand } from '@session-checkpoint/cli/plugin';
export default class ProbeUsage extends BaseCommand {
  async run() { this.error('nothing to probe'); }
}`,
  'probe-exit': `import { BaseCommand } from '@session-checkpoint/cli/plugin';
export default class ProbeExit extends BaseCommand {
  async run() { this.exit(4); }
}`,
  'probe-warn': `import { BaseCommand } from '@session-checkpoint/cli/plugin';
export default class ProbeWarn extends BaseCommand {
  async run() { this.warn('careful'); this.respond({ warned: true }); }
}`,
  'probe-config': `import { BaseCommand } from '@session-checkpoint/cli/plugin';
export default class ProbeConfig extends BaseCommand {
  async run() {
    const c = this.config;
    return { arch: c.arch, bin: c.bin, cacheDir: c.cacheDir, configDir: c.configDir, dataDir: c.dataDir, dirname: c.dirname, home: c.home,
      name: c.name, platform: c.platform, shell: c.shell, topicSeparator: c.topicSeparator, userAgent: c.userAgent, version: c.version,
      windows: c.windows, key: c.scopedEnvVarKey('probe'), value: c.scopedEnvVar('PROBE') ?? null, on: c.scopedEnvVarTrue('PROBE'),
      pjsonName: c.pjson.name, hooks: await c.runHook('probe', {}).then((r) => r.successes.length) };
  }
}`,
  'probe-options': `import { BaseCommand, Flags } from '@session-checkpoint/cli/plugin';
export default class ProbeOptions extends BaseCommand {
  static flags = { color: Flags.string({ options: ['red', 'blue'], required: true }), size: Flags.integer({ min: 1 }) };
  async run() { return this.flags; }
}`,
  'probe-args': `import { Args, BaseCommand } from '@session-checkpoint/cli/plugin';
export default class ProbeArgs extends BaseCommand {
  static args = { name: Args.string({ required: true }) };
  async run() { return { name: this.args.name }; }
}`,
  'probe-plugins': `import { BaseCommand } from '@session-checkpoint/cli/plugin';
export default class ProbePlugins extends BaseCommand {
  async run() { return { plugins: this.config.getPluginsList().map((p) => p.name).filter((n) => n === 'probe-plugin') }; }
}`,
  'probe-falsy': `import { BaseCommand } from '@session-checkpoint/cli/plugin';
export default class ProbeFalsy extends BaseCommand {
  async run() { this.respond(0); }
}`,
  'probe-close': `import { BaseCommand } from '@session-checkpoint/cli/plugin';
export default class ProbeClose extends BaseCommand {
  async run() { const store = await this.openStore(); store.close = async () => { throw new Error('closing failed'); }; return { opened: true }; }
}`,
  'probe-plain': `export default { run: async () => ({ ran: true }) };`,
  'probe-broken': `import { BaseCommand } from '@session-checkpoint/cli/plugin';
throw new Error('the probe module failed to load');`,
};

/** The calls run on both paths. */
const CALLS: string[][] = [
  ['probe-flags', '--label', 'x'],
  ['probe-flags', '--label=x', '--loud', '--count', '0_7'],
  ['probe-flags', '--loud'],
  ['probe-flags', '--label', 'x', '--count', 'many'],
  ['probe-flags', '--label', 'x', '--label', 'y'],
  ['probe-flags', '--label', 'x', 'extra'],
  ['probe-flags', '--label', 'x', '--bogus'],
  ['probe-flags', '--label', 'x', '--valueOf'],
  ['probe-flags', '-h'],
  ['probe-store', '--store', 's.sqlite'],
  ['probe-store', '--store', 's.sqlite', '--namespace', 'app'],
  ['probe-store', '--store', 'missing.sqlite'],
  ['probe-store'],
  ['probe-sealed', '--store', 'sealed.sqlite', '--key-file', 'k.keys'],
  ['probe-sealed', '--store', 'sealed.sqlite'],
  ['probe-error'],
  ['probe-usage'],
  ['probe-exit'],
  ['probe-warn'],
  ['probe-config'],
  ['probe-options', '--color', 'red'],
  ['probe-options', '--color', 'green'],
  ['probe-options', '--color', 'red', '--size', '0'],
  ['probe-args', 'ada'],
  ['probe-args'],
  ['probe-plugins'],
  ['probe-falsy'],
  ['probe-close', '--store', 's.sqlite'],
  ['probe-plain'],
  ['probe-broken'],
];

/** Text without ANSI colour codes. */
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/gu, '');

/** A linked plugin holding the probe commands; `@session-checkpoint/cli/plugin` reaches it through the plugin host. */
function probePlugin(root: string): string {
  mkdirSync(join(root, 'commands'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'probe-plugin', version: '1.0.0', type: 'module', oclif: { commands: './commands' } }));
  for (const [id, source] of Object.entries(PROBE_COMMANDS)) writeFileSync(join(root, 'commands', `${id}.js`), `${source}\n`);
  return root;
}

describe('plugin commands on oclif', () => {
  let work = '';
  let results: CliResult[] = [];
  let data = '';

  beforeAll(async () => {
    work = tempDir('sc-plugin-commands-');
    data = dataHomeLinking(join(work, 'data'), [probePlugin(join(work, 'probe-plugin'))]);
    writeFileSync(join(work, 'p.json'), '{"step": 1}');
    expect((await runCli(['create', '--store', 's.sqlite', '--namespace', 'app', '--session-id', 'a', '--payload-file', 'p.json'], { cwd: work })).code).toBe(0);
    expect((await runCli(['keys', 'new', '--output', 'k.keys', '--id', 'probe-key'], { cwd: work })).code).toBe(0);
    expect((await runCli(['create', '--store', 'sealed.sqlite', '--key-file', 'k.keys', '--namespace', 'app', '--session-id', 'a', '--payload-file', 'p.json'], { cwd: work })).code).toBe(0);
    results = await runCliBatch(CALLS.map((args) => ({ args, cwd: work, env: { SESSION_CHECKPOINT_PROBE: 'true', XDG_DATA_HOME: data } })));
  });

  afterAll(removeTempDirs);

  /** The outcome of call `args`: exit code, and `ok`/`type`/`error`/`result` of its document (`null` for no output). */
  function outcome(...args: string[]): { code: number | null; json: { ok: boolean; result?: Record<string, unknown>; type?: string; error?: string } | null } {
    const i = CALLS.findIndex((call) => call.join(' ') === args.join(' '));
    const { code, stdout } = results[i]!;
    return { code, json: stdout === '' ? null : JSON.parse(stdout) };
  }

  it.each(CALLS.map((args, i) => [args.join(' '), i] as const))('%s: one document or none, nothing on stderr', (_name, i) => {
    const { stdout, stderr } = results[i]!;
    expect(stderr).toBe('');
    // Help is text; everything else one JSON document, or nothing for `this.exit()`.
    if (stdout !== '' && !CALLS[i]!.includes('-h')) expect(() => JSON.parse(stdout)).not.toThrow();
  });

  it('prints each result as the command returned it', () => {
    expect(outcome('probe-flags', '--label=x', '--loud', '--count', '0_7')).toMatchObject({ code: 0, json: { ok: true, result: { flags: { label: 'x', loud: true, count: 7 }, id: 'probe-flags' } } });
    expect(outcome('probe-flags', '--label', 'x').json?.result?.flags).toEqual({ label: 'x', count: 3, verbose: false });
    expect(outcome('probe-store', '--store', 's.sqlite', '--namespace', 'app')).toMatchObject({ code: 0, json: { result: { sessions: 1, where: join(work, 's.sqlite') } } });
    expect(outcome('probe-warn')).toMatchObject({ code: 0, json: { ok: true, result: { warned: true } } });
    expect(outcome('probe-falsy')).toEqual({ code: 0, json: { ok: true, result: 0 } });
    expect(outcome('probe-config').json?.result).toMatchObject({ bin: 'session-checkpoint', dirname: 'session-checkpoint', value: 'true', on: true, key: 'SESSION_CHECKPOINT_PROBE', hooks: 0 });
    // oclif's whole Config: the plugin sees itself in the plugin list.
    expect(outcome('probe-plugins').json?.result).toEqual({ plugins: ['probe-plugin'] });
    expect(outcome('probe-options', '--color', 'red').json?.result).toEqual({ color: 'red', verbose: false });
    expect(outcome('probe-args', 'ada').json?.result).toEqual({ name: 'ada' });
    // --key-file is one of BaseCommand's store flags: openStore() opens a sealed store with its keys.
    expect(outcome('probe-sealed', '--store', 'sealed.sqlite', '--key-file', 'k.keys').json?.result).toEqual({ keys: { activeId: 'probe-key', ids: ['probe-key'] }, payload: { step: 1 } });
    expect(outcome('probe-sealed', '--store', 'sealed.sqlite').json?.result).toMatchObject({ keys: null, payload: { key: 'probe-key', sealed: 1 } });
  });

  it('maps failures to the error object with the exit code of the contract', () => {
    const usage = (...args: string[]) => expect(outcome(...args), args.join(' ')).toMatchObject({ code: 2, json: { ok: false, type: 'UsageError' } });
    usage('probe-flags', '--loud');
    usage('probe-flags', '--label', 'x', '--label', 'y');
    usage('probe-flags', '--label', 'x', 'extra');
    usage('probe-flags', '--label', 'x', '--bogus');
    usage('probe-options', '--color', 'green');
    usage('probe-options', '--color', 'red', '--size', '0');
    usage('probe-args');
    usage('probe-store');
    usage('probe-usage');
    expect(outcome('probe-flags', '--label', 'x', '--count', 'many').json?.error).toBe("argument --count: invalid int value: 'many'");
    expect(outcome('probe-flags', '--label', 'x', '--valueOf').json?.error).toBe('Nonexistent flag: --valueOf');
    expect(outcome('probe-store', '--store', 'missing.sqlite')).toMatchObject({ code: 1, json: { type: 'StoreNotFoundError' } });
    expect(outcome('probe-error')).toEqual({ code: 3, json: { ok: false, type: 'CommandError', error: 'the probe failed on purpose' } });
    expect(outcome('probe-exit')).toEqual({ code: 4, json: null });
    expect(outcome('probe-close', '--store', 's.sqlite')).toEqual({ code: 1, json: { ok: false, type: 'InternalError', error: 'closing failed' } });
    expect(outcome('probe-plain')).toMatchObject({ code: 1, json: { type: 'CommandError' } });
    // oclif cannot list a command whose module fails to load (a warning under --verbose).
    expect(outcome('probe-broken')).toMatchObject({ code: 2, json: { ok: false, type: 'UsageError', error: expect.stringMatching(/^argument command: invalid choice: 'probe-broken'/u) } });
    const help = results[CALLS.findIndex((call) => call.join(' ') === 'probe-flags -h')]!;
    // oclif colours help and warnings when the environment asks for colour (FORCE_COLOR under nx).
    expect([help.code, plain(help.stdout)]).toEqual([0, expect.stringContaining('--label=<value>')]);
  });

  it('shows a warning with --verbose only', async () => {
    const env = { XDG_DATA_HOME: data, OCLIF_DISABLE_LINKED_ESM_WARNING: '1' };
    const quiet = await runCli(['probe-warn'], { cwd: work, env });
    const verbose = await runCli(['probe-warn', '--verbose'], { cwd: work, env });
    expect([quiet.stderr, verbose.stdout]).toEqual(['', quiet.stdout]);
    expect(plain(verbose.stderr)).toMatch(/^ › {3}Warning: careful$/mu);
  });
});
