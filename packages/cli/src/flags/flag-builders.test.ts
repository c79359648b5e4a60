/**
 * The CLI's `Flags` and `Args` stand in for oclif's: every builder must give a definition oclif's
 * parser, help and manifest read exactly as oclif's own (same keys and values apart from the parse
 * function, which must parse the same inputs to the same values and refuse the same ones with the
 * same message).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Args as OclifArgs, Flags as OclifFlags, Parser } from '@oclif/core';
import { describe, expect, it } from 'vitest';
import { Args, Flags } from './flag-builders.js';

const dir = mkdtempSync(join(tmpdir(), 'sc-flag-builders-'));
const file = join(dir, 'a.txt');
writeFileSync(file, 'x');

type Definition = Record<string, unknown> & { parse: (input: never, context: unknown, options: unknown) => Promise<unknown> };

/** What a parse gives: the value, or the error message. */
async function outcome(definition: Definition, input: unknown): Promise<unknown> {
  try {
    const value = await definition.parse(input as never, {}, definition);
    return value instanceof URL ? { url: value.href } : { value };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const withoutParse = (definition: Definition) => Object.fromEntries(Object.entries(definition).filter(([key]) => key !== 'parse'));

const FLAG_CASES: [string, Record<string, unknown>, unknown[]][] = [
  ['string', { description: 'd', required: true }, ['x', '', '-1']],
  ['string', { multiple: true, default: ['a'] }, ['x']],
  ['boolean', { allowNo: true, default: true }, [true, false]],
  ['boolean', {}, [true]],
  ['integer', { min: 1, max: 9 }, ['5', '0', '10', 'x', '-3', '1.5']],
  ['integer', {}, ['12', '+1']],
  ['url', {}, ['https://example.com/a', 'not a url']],
  ['file', { exists: true }, [file, join(dir, 'missing'), dir]],
  ['directory', { exists: true }, [dir, join(dir, 'missing'), file]],
  ['file', {}, ['anything']],
];

describe('Flags', () => {
  it.each(FLAG_CASES)('%s(%j) is oclif\'s definition', async (kind, options, inputs) => {
    const ours = (Flags as unknown as Record<string, (o: unknown) => Definition>)[kind]!(options);
    const theirs = (OclifFlags as unknown as Record<string, (o: unknown) => Definition>)[kind]!(options);
    expect(withoutParse(ours)).toEqual(withoutParse(theirs));
    for (const input of inputs) expect([input, await outcome(ours, input)]).toEqual([input, await outcome(theirs, input)]);
  });

  it('custom and option make the same definitions as oclif\'s', async () => {
    const parse = async (input: string) => input.length;
    expect(withoutParse(Flags.custom<number>({ parse })({ required: true }) as unknown as Definition)).toEqual(withoutParse(OclifFlags.custom<number>({ parse })({ required: true }) as unknown as Definition));
    const ours = Flags.option({ options: ['a', 'b'] as const })({ default: 'a' }) as unknown as Definition;
    const theirs = OclifFlags.option({ options: ['a', 'b'] as const })({ default: 'a' }) as unknown as Definition;
    expect(withoutParse(ours)).toEqual(withoutParse(theirs));
  });

  it('parses command lines the same through oclif\'s parser', async () => {
    const make = (F: typeof Flags) => ({ name: F.string({ required: true }), n: F.integer({ min: 0 }), loud: F.boolean({ allowNo: true }), tags: F.string({ multiple: true }) });
    for (const argv of [['--name', 'a', '--n', '3', '--no-loud', '--tags', 'x', '--tags', 'y'], ['--name=b', '--loud'], ['--n', 'x', '--name', 'a'], ['--n', '-1', '--name', 'a']]) {
      const parse = (F: typeof Flags) => Parser.parse(argv, { flags: make(F) }).then((r) => ({ flags: r.flags }), (e: Error) => ({ error: e.message }));
      expect(await parse(Flags)).toEqual(await parse(OclifFlags as unknown as typeof Flags));
    }
  });
});

describe('Args', () => {
  it.each([
    ['string', { required: true, description: 'who' }, ['ada']],
    ['integer', { min: 2 }, ['3', '1', 'x']],
    ['boolean', {}, ['yes', 'no', 'false', '0', 'true']],
    ['url', {}, ['https://example.com', 'nope']],
    ['file', { exists: true }, [file, join(dir, 'missing')]],
    ['directory', { exists: true }, [dir, file]],
  ] as [string, Record<string, unknown>, unknown[]][])('%s(%j) is oclif\'s definition', async (kind, options, inputs) => {
    const ours = (Args as unknown as Record<string, (o: unknown) => Definition>)[kind]!(options);
    const theirs = (OclifArgs as unknown as Record<string, (o: unknown) => Definition>)[kind]!(options);
    expect(withoutParse(ours)).toEqual(withoutParse(theirs));
    for (const input of inputs) expect([input, await outcome(ours, input)]).toEqual([input, await outcome(theirs, input)]);
  });
});
