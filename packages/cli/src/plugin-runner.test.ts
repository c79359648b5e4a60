/**
 * A plugin's own command starts without oclif when nothing could make oclif run it otherwise
 * (src/direct/run-plugin-direct.ts). Which path ran must be invisible: every call of a probe
 * plugin gives the same stdout and exit code on the plugin runner and through oclif (forced by a
 * plugin with a hook), and the runner is taken exactly when the rules say.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_PLUGIN, dataHomeLinking, hookPlugin } from './test-support/plugin-setups.js';
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
  'probe-slow': `import { BaseCommand } from '@session-checkpoint/cli/plugin';
export default class ProbeSlow extends BaseCommand {
  static fastStart = false;
  async run() { return { plugins: typeof this.config.plugins }; }
}`,
  'probe-full-config': `import { BaseCommand } from '@session-checkpoint/cli/plugin';
export default class ProbeFullConfig extends BaseCommand {
  async run() { return { plugins: typeof this.config.plugins }; }
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
  ['probe-slow'],
  ['probe-plain'],
  ['probe-broken'],
];

/** A linked plugin holding the probe commands; `@session-checkpoint/cli/plugin` reaches it through the plugin host. */
function probePlugin(root: string): string {
  mkdirSync(join(root, 'commands'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'probe-plugin', version: '1.0.0', type: 'module', oclif: { commands: './commands' } }));
  for (const [id, source] of Object.entries(PROBE_COMMANDS)) writeFileSync(join(root, 'commands', `${id}.js`), `${source}\n`);
  return root;
}

describe('the plugin runner', () => {
  let work = '';
  let probe = '';
  let log = '';
  let recorder = '';

  beforeAll(async () => {
    work = tempDir('sc-plugin-runner-');
    probe = probePlugin(join(work, 'probe-plugin'));
    [log, recorder] = [join(work, 'loaded.log'), join(work, 'record-loads.cjs')];
    // Every CommonJS module a call loaded (oclif is CommonJS, even when an ES module imports it).
    writeFileSync(recorder, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(log)}, Object.keys(require.cache).join('\\n')));\n`);
    writeFileSync(join(work, 'p.json'), '{"step": 1}');
    expect((await runCli(['create', '--store', 's.sqlite', '--namespace', 'app', '--session-id', 'a', '--payload-file', 'p.json'], { cwd: work })).code).toBe(0);
  });

  afterAll(removeTempDirs);

  describe('gives what oclif gives', () => {
    let runner: CliResult[] = [];
    let oclif: CliResult[] = [];
    let marker = '';

    beforeAll(async () => {
      marker = join(work, 'hook-ran');
      const fast = dataHomeLinking(join(work, 'data-fast'), [probe]);
      const slow = dataHomeLinking(join(work, 'data-oclif'), [hookPlugin(join(work, 'hook-plugin'), marker), probe]);
      const env = { SESSION_CHECKPOINT_PROBE: 'true' };
      runner = await runCliBatch(CALLS.map((args) => ({ args, cwd: work, env: { ...env, XDG_DATA_HOME: fast } })));
      oclif = await runCliBatch(CALLS.map((args) => ({ args, cwd: work, env: { ...env, XDG_DATA_HOME: slow } })));
    });

    it('ran the oclif set-up through oclif', () => {
      expect(existsSync(marker)).toBe(true);
    });

    it.each(CALLS.map((args, i) => [args.join(' '), i] as const))('%s', (_name, i) => {
      // The data directory is the one thing the two set-ups differ in.
      const normalise = (text: string) => text.replaceAll(/data-(?:fast|oclif)/gu, 'data-<x>');
      expect(normalise(runner[i]!.stdout)).toBe(normalise(oclif[i]!.stdout));
      expect(runner[i]!.code).toBe(oclif[i]!.code);
      // Each is the stderr of its whole batch.
      expect([runner[i]!.stderr, oclif[i]!.stderr]).toEqual(['', '']);
    });

    it('prints each result as the command returned it', () => {
      const result = (i: number) => JSON.parse(runner[i]!.stdout) as { ok: boolean; result?: Record<string, unknown>; type?: string; error?: string };
      expect(result(1).result).toMatchObject({ flags: { label: 'x', loud: true, count: 7 }, id: 'probe-flags' });
      expect(result(10).result).toMatchObject({ sessions: 1 });
      expect([result(13).type, result(13).error, runner[13]!.code]).toEqual(['CommandError', 'the probe failed on purpose', 3]);
      expect([result(14).type, runner[14]!.code]).toEqual(['UsageError', 2]);
      expect([runner[15]!.stdout, runner[15]!.code]).toEqual(['', 4]);
      expect(result(17).result).toMatchObject({ bin: 'session-checkpoint', dirname: 'session-checkpoint', value: 'true', on: true, key: 'SESSION_CHECKPOINT_PROBE', hooks: 0 });
    });
  });

  describe('is taken exactly when nothing could differ', () => {
    /** Whether the call loaded oclif, and its result. */
    async function call(args: string[], plugins: string[]): Promise<{ oclif: boolean; result: CliResult }> {
      writeFileSync(log, '');
      const home = dataHomeLinking(join(work, `data-${plugins.length}-${Math.random().toString(36).slice(2)}`), plugins);
      const result = await runCli(args, { cwd: work, env: { XDG_DATA_HOME: home, NODE_OPTIONS: `--require ${recorder}` } });
      const paths = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      expect(paths.some((path) => path.endsWith('/dist/fast/main.cjs'))).toBe(true);
      return { oclif: paths.some((path) => path.includes('/@oclif/')), result };
    }

    it.each([
      [['hello', '--store', 's.sqlite'], 'the example plugin'],
      [['probe-flags', '--label', 'x'], 'a flag of each kind the direct parser reads'],
      [['probe-store', '--store', 's.sqlite', '--namespace', 'app'], 'a store'],
      [['probe-config'], "this.config's common members"],
    ])('%s (%s) runs without oclif', async (args) => {
      const { oclif, result } = await call(args, [EXAMPLE_PLUGIN, probe]);
      expect(result.stderr).toBe('');
      expect(oclif).toBe(false);
    });

    it.each([
      [['probe-flags', '--label', 'x', '--help'], 'help'],
      [['probe-flags', '--label', 'x', '-h'], 'a short flag'],
      [['probe-flags', '--label', 'x', 'extra'], 'a positional word'],
      [['probe-flags'], 'a missing required flag'],
      [['probe-options', '--color', 'red'], 'flags beyond the direct parser'],
      [['probe-args', 'ada'], 'positional arguments'],
      [['probe-slow'], 'static fastStart = false'],
      [['probe-plain'], 'a module that is not a BaseCommand class'],
      [['probe-broken'], 'a module that fails to load'],
    ])('%s (%s) goes to oclif', async (args) => {
      expect((await call(args, [probe])).oclif).toBe(true);
    });

    it('goes to oclif when a plugin declares a hook, or two plugins know the id', async () => {
      expect((await call(['hello', '--store', 's.sqlite'], [hookPlugin(join(work, 'hooked'), join(work, 'hooked-ran')), EXAMPLE_PLUGIN])).oclif).toBe(true);
      const twin = join(work, 'twin');
      mkdirSync(join(twin, 'commands'), { recursive: true });
      writeFileSync(join(twin, 'package.json'), JSON.stringify({ name: 'twin', version: '1.0.0', type: 'module', oclif: { commands: './commands' } }));
      writeFileSync(join(twin, 'commands', 'hello.js'), PROBE_COMMANDS['probe-exit']!);
      expect((await call(['hello', '--store', 's.sqlite'], [EXAMPLE_PLUGIN, twin])).oclif).toBe(true);
    });

    it('shows a warning with --verbose only, on both paths', async () => {
      for (const plugins of [[probe], [hookPlugin(join(work, 'hooked-warn'), join(work, 'hooked-warn-ran')), probe]]) {
        const quiet = await call(['probe-warn'], plugins);
        const verbose = await call(['probe-warn', '--verbose'], plugins);
        // oclif adds its own warnings (linked ES module plugins) on its path.
        expect([quiet.result.stderr, verbose.result.stdout]).toEqual(['', quiet.result.stdout]);
        expect(verbose.result.stderr).toMatch(/^ › {3}Warning: careful$/mu);
        expect([quiet.oclif, verbose.oclif]).toEqual([plugins.length > 1, plugins.length > 1]);
      }
    });

    it('names the way to oclif\'s whole Config when a command reads a member the stand-in lacks', async () => {
      const { oclif, result } = await call(['probe-full-config'], [probe]);
      expect(oclif).toBe(false);
      expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, type: 'InternalError' });
      expect(JSON.parse(result.stdout).error).toMatch(/this\.config\.plugins is not available .*static fastStart = false/u);
    });
  });
});
