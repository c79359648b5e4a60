/**
 * BaseCommand overrides oclif's `_run()` so that every command built on it runs through the CLI's
 * one lifecycle (src/lifecycle/run-command.ts). `_run` is not part of oclif's documented API:
 * these checks pin the behaviour relied on, for the exact oclif version the package depends on,
 * so an upgrade that changes it fails here first.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Command, Config } from '@oclif/core';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const cliPackage = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };

describe('the oclif behaviour BaseCommand relies on', () => {
  it('is oclif 4.14.0, the exact version the package pins', () => {
    const installed = (require('@oclif/core/package.json') as { version: string }).version;
    expect(cliPackage.dependencies['@oclif/core']).toBe('4.14.0');
    expect(installed).toBe('4.14.0');
  });

  it('runs a command by calling its _run() once (Command.run, which Config#runCommand calls)', async () => {
    const calls: string[] = [];
    class Probe extends Command {
      static override id = 'probe';
      protected override async _run<T>(): Promise<T> {
        calls.push(`_run ${this.argv.join(' ')}`);
        return 'from _run' as T;
      }
      async run(): Promise<void> {
        calls.push('run');
      }
    }
    const config = await Config.load(fileURLToPath(new URL('..', import.meta.url)));
    expect(await Probe.run(['--x', '1'], config)).toBe('from _run');
    expect(calls).toEqual(['_run --x 1']);
    // Config#runCommand hands the loaded class to Command.run (its `command.run(argv, this)`).
    const runCommand = Config.prototype.runCommand.toString();
    expect(runCommand).toMatch(/await command\.run\(argv, this\)/u);
  });
});
