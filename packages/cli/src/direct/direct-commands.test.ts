/**
 * The direct path repeats, for the commands it runs, what the oclif declarations say. These checks
 * keep the two tables equal: same flag names, kinds, required flags and defaults.
 */
import { readFileSync } from 'node:fs';
import type { Command } from '@oclif/core';
import { describe, expect, it } from 'vitest';
import Create from '../commands/create.js';
import Get from '../commands/get.js';
import List from '../commands/list.js';
import { integerFlag } from '../flags/common-flags.js';
import { DIRECT_BASE_FLAGS, DIRECT_COMMANDS } from './direct-commands.js';

const manifest = JSON.parse(readFileSync(new URL('../../oclif.manifest.json', import.meta.url), 'utf8')) as {
  commands: Record<string, { flags: Record<string, unknown> }>;
};

const CLASSES: Record<string, typeof Command> = { create: Create, get: Get, list: List };

describe.each(Object.keys(DIRECT_COMMANDS))('direct table of %s', (id) => {
  const direct = { ...DIRECT_BASE_FLAGS, ...DIRECT_COMMANDS[id]!.flags };
  const CommandClass = CLASSES[id]!;
  const declared = { ...CommandClass.baseFlags, ...CommandClass.flags };

  it('has the flags oclif declares, no more', () => {
    expect(Object.keys(direct).sort()).toEqual(Object.keys(manifest.commands[id]!.flags).sort());
    expect(Object.keys(direct).sort()).toEqual(Object.keys(declared).sort());
  });

  it('gives each flag the kind, requirement and default oclif gives it', () => {
    const integerParse = integerFlag({}).parse;
    for (const [name, flag] of Object.entries(direct)) {
      const theirs = declared[name]!;
      const kind = theirs.type === 'boolean' ? 'boolean' : theirs.parse === integerParse ? 'integer' : 'string';
      expect({ name, type: flag.type, required: flag.required === true, default: flag.default }).toEqual({
        name,
        type: kind,
        required: theirs.required === true,
        default: theirs.default,
      });
    }
  });
});
