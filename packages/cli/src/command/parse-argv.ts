import { parseArgs } from 'node:util';
import { UsageError } from '../errors/usage-error.js';
import { parsePythonInt } from './python-int.js';
import type { FlagSchema } from './flags.js';

/*
 * A built-in command line is split by Node's own parser (`util.parseArgs`, its tokens), and what
 * it finds is judged here, with the messages the CLI has always given (those of oclif's parser,
 * which the Python-parity and bad-input corpora pin): an unknown flag, a flag without its value,
 * an option given twice, a positional word, a missing required flag, a malformed integer. Each is
 * a usage error (exit 2).
 */

/** A name every object has (`valueOf`, `__proto__`). */
const inherited = (name: string): boolean => name in Object.prototype || (name.startsWith('no-') && name.slice(3) in Object.prototype);

/** Node's tokens of `args`, given which declared flags take a value. */
function tokenize(args: readonly string[], kinds: Readonly<Record<string, 'string' | 'boolean'>>) {
  const options = Object.fromEntries(Object.entries(kinds).map(([name, type]) => [name, { type }]));
  return parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true }).tokens;
}

/**
 * Refuses a long flag that is not declared but names a member of every object (`--valueOf`,
 * `--constructor`), with the message of any other unknown flag: oclif's parser (which parses
 * plugin commands) looks flags up by property access and would take it for a flag.
 *
 * @param kinds Which declared flags take a value (`string`) and which do not (`boolean`).
 * @throws UsageError `Nonexistent flag: --valueOf`.
 * @example
 * ```ts
 * refuseInheritedFlagNames(['--id', '1', '--valueOf'], { id: 'string' }); // throws
 * ```
 */
export function refuseInheritedFlagNames(args: readonly string[], kinds: Readonly<Record<string, 'string' | 'boolean'>>): void {
  for (const token of tokenize(args, kinds)) {
    if (token.kind === 'option' && token.rawName.startsWith('--') && !Object.hasOwn(kinds, token.name) && inherited(token.name)) throw new UsageError(`Nonexistent flag: --${token.name}`);
  }
}

/**
 * Parses the arguments after a built-in command's id against its flags (global flags included).
 * Checks run in the order the CLI has always reported them: a flag name every object has; then,
 * left to right, an option given twice or without a value (the next word, or a word naming a
 * flag); then each value's type in declaration order; then unknown flags, positional words and
 * missing required flags. Integers follow Python's `int()` (python-int.ts).
 *
 * @param args Arguments after the command id.
 * @param flags The command's flags.
 * @returns The flags by name, with defaults (booleans `false`) for those not given.
 * @throws UsageError for anything that is not a valid command line, e.g. `Flag --id can only be specified once`.
 * @example
 * ```ts
 * parseArgv(['--store', 'a.sqlite', '--id=0_7'], { store: flag.string({...}), id: flag.integer({ ..., required: true }) });
 * // { store: 'a.sqlite', id: 7 }
 * ```
 */
export function parseArgv(args: readonly string[], flags: FlagSchema): Record<string, unknown> {
  const kinds = Object.fromEntries(Object.entries(flags).map(([name, spec]) => [name, spec.type === 'boolean' ? ('boolean' as const) : ('string' as const)]));
  refuseInheritedFlagNames(args, kinds);
  const declared = (name: string) => Object.hasOwn(flags, name);
  const given: Record<string, string | boolean> = {};
  const unknown: string[] = [];
  const positionals: string[] = [];
  const seen = new Set<number>();
  for (const token of tokenize(args, kinds)) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const { name } = token;
    if (!token.rawName.startsWith('--') || !declared(name)) {
      // `-xyz` is one unknown word (parseArgs splits it); a negative number is a positional word.
      const raw = args[token.index]!;
      if (!seen.has(token.index)) (/^-\d/u.test(raw) ? positionals : unknown).push(raw);
      seen.add(token.index);
    } else if (flags[name]!.type === 'boolean') {
      given[name] = true;
      // `--dry-run=true`: the switch, then `true` as a word of its own.
      if (token.inlineValue) positionals.push(token.value!);
    } else {
      if (Object.hasOwn(given, name)) throw new UsageError(`Flag --${name} can only be specified once`);
      const value = token.value;
      if (value === undefined || (value.startsWith('--') && (declared(value.slice(2)) || inherited(value.slice(2))))) throw new UsageError(`Flag --${name} expects a value`);
      given[name] = value;
    }
  }
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(flags)) {
    const value = given[name];
    if (value !== undefined) values[name] = spec.type === 'integer' ? parsePythonInt(value as string, `--${name}`) : value;
    else if (spec.default !== undefined || spec.type === 'boolean') values[name] = spec.default ?? false;
  }
  if (unknown.length > 0) throw new UsageError(`Nonexistent flag${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}`);
  if (positionals.length > 0) throw new UsageError(`Unexpected argument${positionals.length === 1 ? '' : 's'}: ${positionals.join(', ')}`);
  const missing = Object.keys(flags).filter((name) => flags[name]!.required === true && given[name] === undefined);
  if (missing.length > 0) throw new UsageError(missing.map((name) => `Missing required flag ${name}`).join('; '));
  return values;
}
