import { stat } from 'node:fs/promises';
import type { Args as OclifArgs, Flags as OclifFlags } from '@oclif/core';
import { UsageError } from '../errors/usage-error.js';

/*
 * `Flags` and `Args` for commands built on BaseCommand, without loading oclif. oclif's own
 * builders live in modules that pull in its error, help and ux code (about 70 files), so a
 * command declaring `Flags.string()` from '@oclif/core' paid for most of oclif before it ran.
 * These return the same plain definition objects oclif's do (same keys: `parse`, `input`,
 * `multiple`, `type`, and the caller's options), so oclif's parser, help and manifest read them
 * as their own, and the same static types (oclif's, imported as types only). What they leave
 * out: `Flags.help` and `Flags.version` (oclif's help owns those).
 */

type FlagOptions = Record<string, unknown> & { multiple?: boolean };
type Parse = (input: string, context: unknown, options: Record<string, unknown>) => Promise<unknown>;

/**
 * Marks a parse function whose flag the direct parser reads exactly as oclif would, with its kind
 * (`'string'`, `'boolean'`, `'integer'`). A registered symbol: the CLI's bundle and the module a
 * plugin imports are separate copies of this file, so the functions are not the same objects.
 */
export const DIRECT_KIND = Symbol.for('session-checkpoint.direct-kind');

/** `parse` marked with its {@link DIRECT_KIND}. */
export function directKind<F extends object>(parse: F, kind: 'string' | 'boolean' | 'integer'): F {
  return Object.defineProperty(parse, DIRECT_KIND, { value: kind });
}

/** The parse function of `Flags.string()` and `Args.string()`: the text as given. */
export const PARSE_STRING: Parse = directKind(async (input) => input, 'string');
/** The parse function of `Flags.boolean()`: the switch's value as given. */
export const PARSE_BOOLEAN = directKind(async (value: boolean): Promise<boolean> => value, 'boolean');

/** oclif's `Flags.custom`: a flag with a value, parsed by `defaults.parse` (default: the text). */
function customFlag(defaults: FlagOptions = {}) {
  return (options: FlagOptions = {}) => ({
    parse: PARSE_STRING,
    ...defaults,
    ...options,
    input: [],
    multiple: Boolean(options.multiple === undefined ? (defaults.multiple ?? false) : options.multiple),
    type: 'option' as const,
  });
}

/** oclif's `Args.custom`: a positional argument parsed by `defaults.parse` (default: the text). */
function customArg(defaults: FlagOptions = {}) {
  return (options: FlagOptions = {}) => ({ parse: PARSE_STRING, ...defaults, ...options, input: [], type: 'option' as const });
}

/** oclif's integer parse (decimal digits, optional `min`/`max`); its messages, a usage error. */
async function parseInteger(input: string, _context: unknown, options: { min?: number; max?: number }): Promise<number> {
  if (!/^-?\d+$/u.test(input)) throw new UsageError(`Expected an integer but received: ${input}`);
  const number = Number.parseInt(input, 10);
  if (options.min !== undefined && number < options.min) throw new UsageError(`Expected an integer greater than or equal to ${options.min} but received: ${input}`);
  if (options.max !== undefined && number > options.max) throw new UsageError(`Expected an integer less than or equal to ${options.max} but received: ${input}`);
  return number;
}

async function parseUrl(input: string): Promise<URL> {
  try {
    return new URL(input);
  } catch {
    throw new UsageError(`Expected a valid url but received: ${input}`);
  }
}

/** oclif's `exists: true` checks for `file` and `directory`, with its messages. */
function pathParse(kind: 'file' | 'directory') {
  return async (input: string, _context: unknown, options: { exists?: boolean }): Promise<string> => {
    if (!options.exists) return input;
    let stats;
    try {
      stats = await stat(input);
    } catch {
      throw new UsageError(`No ${kind} found at ${input}`);
    }
    if (kind === 'file' ? !stats.isFile() : !stats.isDirectory()) throw new UsageError(`${input} exists but is not a ${kind}`);
    return input;
  };
}

/** oclif's `Flags.boolean`: a switch (`--dry-run`), `false` when absent unless `default` says otherwise. */
function booleanFlag(options: FlagOptions = {}) {
  return { parse: PARSE_BOOLEAN, ...options, allowNo: Boolean(options.allowNo), type: 'boolean' as const };
}

/** oclif's `Flags.option`: a value from `options`, typed as their union. */
function optionFlag(defaults: FlagOptions) {
  return (options: FlagOptions = {}) => ({
    parse: PARSE_STRING,
    ...defaults,
    ...options,
    input: [],
    multiple: Boolean(options.multiple === undefined ? defaults.multiple : options.multiple),
    type: 'option' as const,
  });
}

/**
 * Flag builders with oclif's names, options and types (`Flags.string`, `boolean`, `integer`,
 * `custom`, `option`, `url`, `file`, `directory`), importable without loading oclif. Use them
 * in plugin commands in place of `Flags` from '@oclif/core' (which also works, but loads oclif
 * and, for anything but a plain string or boolean, sends the call through oclif's parser).
 *
 * @example
 * ```ts
 * import { BaseCommand, Flags } from '@session-checkpoint/cli/plugin';
 * static flags = { label: Flags.string({ description: 'A label.', required: true }) };
 * ```
 */
export const Flags = {
  boolean: booleanFlag,
  custom: customFlag,
  directory: customFlag({ parse: pathParse('directory') }),
  file: customFlag({ parse: pathParse('file') }),
  integer: customFlag({ parse: parseInteger }),
  option: optionFlag,
  string: customFlag(),
  url: customFlag({ parse: parseUrl }),
} as unknown as Pick<typeof OclifFlags, 'boolean' | 'custom' | 'directory' | 'file' | 'integer' | 'option' | 'string' | 'url'>;

/**
 * Positional argument builders with oclif's names, options and types (`Args.string`, `boolean`,
 * `integer`, `custom`, `option`, `url`, `file`, `directory`), importable without loading oclif.
 * A command with positional arguments is parsed by oclif's parser (loaded when needed).
 *
 * @example
 * ```ts
 * static args = { name: Args.string({ description: 'Who to greet.', required: true }) };
 * ```
 */
export const Args = {
  boolean: customArg({ parse: async (input: string) => Boolean(input) && !['0', 'false', 'n', 'no'].includes(input.toLowerCase()) }),
  custom: customArg,
  directory: customArg({ parse: pathParse('directory') }),
  file: customArg({ parse: pathParse('file') }),
  integer: customArg({ parse: parseInteger }),
  option: customArg,
  string: customArg(),
  url: customArg({ parse: parseUrl }),
} as unknown as Pick<typeof OclifArgs, 'boolean' | 'custom' | 'directory' | 'file' | 'integer' | 'option' | 'string' | 'url'>;
