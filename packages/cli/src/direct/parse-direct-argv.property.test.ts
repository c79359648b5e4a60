/**
 * The direct parser is a shortcut past oclif's (built-in commands on the direct path, plugin
 * commands on the plugin runner, BaseCommand#parse): it may decline any command line, but what it
 * accepts it must read exactly as oclif does. Random command lines over flags of every kind it
 * models, each accepted one compared with oclif's own parser on the same definitions.
 */
import { Parser } from '@oclif/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { integerFlag } from '../flags/common-flags.js';
import { Flags } from '../flags/flag-builders.js';
import { directFlagsOf } from './direct-flags.js';
import { parseDirectArgv } from './parse-direct-argv.js';

const FLAGS = {
  store: Flags.string({ description: 'a path' }),
  label: Flags.string({ required: true }),
  namespace: Flags.string({ default: 'default' }),
  id: integerFlag({ required: false }),
  limit: integerFlag({ default: 20 }),
  loud: Flags.boolean(),
  quiet: Flags.boolean({ default: false }),
};

/** Values of every shape, plain and odd. */
const VALUES = ['a.sqlite', 'x', '7', ' 7 ', '+5', '0_1', '1_', '-1', '1e3', 'abc', '', 'a=b', '-', '--x', 'true'];
const NAMES = Object.keys(FLAGS);
/** One piece of a command line: a flag and its value (both spellings), a bare switch, or a stray word. */
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...VALUES)).map(([name, value]) => [`--${name}`, value]) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...VALUES)).map(([name, value]) => [`--${name}=${value}`]) },
  { weight: 3, arbitrary: fc.constantFrom('loud', 'quiet', 'no-loud').map((name) => [`--${name}`]) },
  { weight: 1, arbitrary: fc.constantFrom('--bogus', '--valueOf', '--', '-h', 'stray', '--store').map((word) => [word]) },
);
/** Command lines that mostly give the required `--label`, so many parse. */
const commandLine = fc.tuple(fc.boolean(), fc.constantFrom(...VALUES), fc.array(piece, { maxLength: 5 })).map(([label, value, pieces]) => [...(label ? ['--label', value] : []), ...pieces.flat()]);

describe('parseDirectArgv against oclif', () => {
  it('reads every command line it accepts as oclif does', async () => {
    const table = directFlagsOf(FLAGS);
    expect(table).toBeDefined();
    let accepted = 0;
    let declined = 0;
    await fc.assert(
      fc.asyncProperty(commandLine, async (argv) => {
        const direct = parseDirectArgv(argv, table!);
        if (direct === undefined) {
          declined++;
          return;
        }
        accepted++;
        const oclif = await Parser.parse(argv, { flags: FLAGS, args: {}, strict: true });
        expect(direct).toEqual(oclif.flags);
      }),
      { numRuns: 3000, seed: 0x31a },
    );
    // Both branches ran often enough to mean something.
    expect(accepted).toBeGreaterThan(100);
    expect(declined).toBeGreaterThan(100);
  });
});
