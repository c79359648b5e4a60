/**
 * BaseCommand does not extend oclif's `Command` (src/command-base.ts): oclif runs it as a command
 * class because oclif only calls the class's static `run(argv, config)` and reads its statics.
 * These checks pin what is relied on, for the exact oclif version the package depends on, so an
 * upgrade that changes it fails here first.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Config } from '@oclif/core';
import { describe, expect, it } from 'vitest';
import { BaseCommand } from './base-command.js';
import { Flags } from './flags/flag-builders.js';

const require = createRequire(import.meta.url);
const cliPackage = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };

describe('the oclif behaviour BaseCommand relies on', () => {
  it('is oclif 4.14.0, the exact version the package pins', () => {
    const installed = (require('@oclif/core/package.json') as { version: string }).version;
    expect(cliPackage.dependencies['@oclif/core']).toBe('4.14.0');
    expect(installed).toBe('4.14.0');
  });

  it('runs a command class by calling its static run(argv, config) (Config#runCommand)', async () => {
    const runCommand = Config.prototype.runCommand.toString();
    expect(runCommand).toMatch(/await command\.run\(argv, this\)/u);
  });

  it('runs a BaseCommand class through Config#runCommand, with its flags parsed by oclif when the direct parser declines', async () => {
    const config = await Config.load(fileURLToPath(new URL('..', import.meta.url)));
    const seen: unknown[] = [];
    class Probe extends BaseCommand {
      static override id = 'probe';
      static override flags = { name: Flags.string({ char: 'n', required: true }) };
      async run() {
        seen.push(this.config === config, this.flags.name);
        return { ok: 1 };
      }
    }
    // A short flag: beyond the direct parser, so oclif's parser reads it.
    const written: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stdout.write;
    try {
      await Probe.run(['-n', 'ada'], config);
    } finally {
      process.stdout.write = write;
    }
    expect(seen).toEqual([true, 'ada']);
    expect(JSON.parse(written.join(''))).toEqual({ ok: true, result: { ok: 1 } });
    process.exitCode = undefined;
  });
});
