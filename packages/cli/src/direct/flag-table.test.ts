/**
 * The direct path's flag table is generated at build time (scripts/direct-flag-table.mjs) from
 * the command classes. These checks hold it to the oclif manifest, and show that the generator
 * refuses flag features the direct parser does not model.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ACTIONS } from '../actions/registry.js';
import { removeTempDirs, tempDir } from '../test-support/run-cli.js';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));
const generator = new URL('../../scripts/direct-flag-table.mjs', import.meta.url).href;
const directFlagTable = (await import(generator)).directFlagTable as (dist: string) => Promise<Record<string, Record<string, { type: string; required?: boolean; default?: unknown }>>>;

const manifest = JSON.parse(readFileSync(new URL('../../oclif.manifest.json', import.meta.url), 'utf8')) as {
  commands: Record<string, { flags: Record<string, { type: string; required?: boolean; default?: unknown }> }>;
};

describe('generated direct flag table', () => {
  afterAll(removeTempDirs);

  it('has every command of the manifest, each with an action', async () => {
    const table = await directFlagTable(dist);
    expect(Object.keys(table).sort()).toEqual(Object.keys(manifest.commands).sort());
    expect(Object.keys(ACTIONS).sort()).toEqual(Object.keys(manifest.commands).sort());
  });

  it('gives each flag the kind, requirement and default the manifest gives it', async () => {
    const table = await directFlagTable(dist);
    for (const [id, command] of Object.entries(manifest.commands)) {
      expect(Object.keys(table[id]!).sort(), id).toEqual(Object.keys(command.flags).sort());
      for (const [name, flag] of Object.entries(command.flags)) {
        const ours = table[id]![name]!;
        expect({ id, name, boolean: ours.type === 'boolean', required: ours.required === true, default: ours.default }).toEqual({
          id,
          name,
          boolean: flag.type === 'boolean',
          required: flag.required === true,
          // The manifest leaves out a boolean's `false` default.
          default: flag.default ?? (flag.type === 'boolean' ? false : undefined),
        });
      }
    }
    expect(table.get!.id).toEqual({ type: 'integer', required: true });
  });

  it.each([
    ['options', "Flags.string({ options: ['a', 'b'] })", "uses 'options'"],
    ['multiple', 'Flags.string({ multiple: true })', "uses 'multiple'"],
    ['exclusive', "Flags.string({ exclusive: ['other'] })", "uses 'exclusive'"],
    ['dependsOn', "Flags.string({ dependsOn: ['other'] })", "uses 'dependsOn'"],
    ['a custom parse', 'Flags.string({ parse: async (input) => input.toUpperCase() })', 'custom parse'],
    ['an env fallback', "Flags.string({ env: 'X' })", "uses 'env'"],
    ['a computed default', "Flags.string({ default: async () => 'x' })", 'computed default'],
    ['allowNo', 'Flags.boolean({ allowNo: true })', "uses 'allowNo'"],
  ])('fails the build on %s', async (_what, flag, message) => {
    const fake = tempDir('sc-flag-table-');
    mkdirSync(join(fake, 'commands'));
    mkdirSync(join(fake, 'flags'));
    const oclif = createRequire(import.meta.url).resolve('@oclif/core');
    writeFileSync(join(fake, 'flags', 'common-flags.js'), `export * from ${JSON.stringify(join(dist, 'flags', 'common-flags.js'))};\n`);
    writeFileSync(
      join(fake, 'commands', 'odd.js'),
      `import { Command, Flags } from ${JSON.stringify(oclif)};\nexport default class Odd extends Command { static flags = { value: ${flag} }; async run() {} }\n`,
    );
    await expect(directFlagTable(fake)).rejects.toThrow(message);
  });
});
