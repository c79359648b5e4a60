import { Flags } from '@oclif/core';
import { GLOBAL_FLAGS, applyFlag as applySpec, namespaceFlag as namespaceSpec, type FlagSchema, type FlagSpec } from './flags.js';
import { parsePythonInt } from './python-int.js';

/*
 * The flag schema (flags.ts) as oclif's own flag definitions: for oclif's manifest and help of the
 * built-in commands (oclif-commands.ts), and for plugin commands, which oclif parses.
 */

/**
 * An integer option parsed like Python's `int()` (`0_1` is 1; `abc` is a usage error,
 * `argument --limit: invalid int value: 'abc'`), as the built-in commands read integers.
 *
 * @example
 * ```ts
 * static flags = { limit: integerFlag({ default: 20, description: 'Page size' }) };
 * ```
 */
export const integerFlag = Flags.custom<number>({ parse: async (input, _context, options) => parsePythonInt(input, `--${options.name}`) });

/** A flag's options without its schema type (oclif's definitions have a `type` of their own). */
function options<S extends FlagSpec>({ type: _type, ...rest }: S): Omit<S, 'type'> {
  return rest;
}

/** One flag of the schema as oclif's definition. */
function oclifFlag(spec: FlagSpec) {
  if (spec.type === 'boolean') return Flags.boolean({ ...options(spec), default: false });
  if (spec.type === 'integer') return integerFlag(options(spec) as { description: string; required?: boolean; default?: number });
  return Flags.string(options(spec) as { description: string; required?: boolean; default?: string });
}

/**
 * A flag schema as oclif's flag definitions (for `static flags` or `baseFlags`).
 *
 * @example
 * ```ts
 * static flags = oclifFlags({ id: flag.integer({ description: 'Checkpoint id.', required: true }) });
 * ```
 */
export function oclifFlags(schema: FlagSchema) {
  return Object.fromEntries(Object.entries(schema).map(([name, spec]) => [name, oclifFlag(spec)]));
}

/**
 * `--store`, `--database-url`, `--schema`, `--connect-timeout` and `--key-file`. Their environment
 * fallbacks are resolved by `selectStore` and `selectKeyFile`, not by oclif.
 */
export const storeFlags = {
  'database-url': Flags.string(options(GLOBAL_FLAGS['database-url'])),
  'connect-timeout': Flags.string(options(GLOBAL_FLAGS['connect-timeout'])),
  schema: Flags.string(options(GLOBAL_FLAGS.schema)),
  store: Flags.string(options(GLOBAL_FLAGS.store)),
  'key-file': Flags.string(options(GLOBAL_FLAGS['key-file'])),
};

/** The flags of every command (BaseCommand's `baseFlags`): the store flags and `--verbose`. */
export const baseFlags = { ...storeFlags, verbose: Flags.boolean({ ...options(GLOBAL_FLAGS.verbose), default: false }) };

/**
 * `--namespace`, the namespace to work in; `"default"` unless `optional`.
 *
 * @example
 * ```ts
 * static flags = { namespace: namespaceFlag() };
 * ```
 */
export function namespaceFlag(settings: { optional?: boolean; description?: string } = {}) {
  const { optional, description } = settings;
  return Flags.string({ ...options(namespaceSpec()), ...(optional ? { default: undefined } : {}), ...(description === undefined ? {} : { description }) });
}

/** `--apply`: perform a destructive or bulk change; without it the command is a dry run. */
export const applyFlag = (description?: string) => Flags.boolean({ ...options(applySpec(description)), default: false });
