import { parsePythonInt } from '../flags/python-int.js';

/** How the direct path reads one flag: the subset of oclif's flag kinds the built-in commands use. */
export interface DirectFlag {
  /** `string` and `integer` take a value (`--id 7`, `--id=7`); `boolean` takes none. */
  readonly type: 'string' | 'integer' | 'boolean';
  /** The call must give it. Default is `false`. */
  readonly required?: boolean;
  /** Value when absent. Default: none (the key is left out). */
  readonly default?: string | number | boolean;
}

/** Flags of one command, by command-line name (without `--`). */
export type DirectFlags = Readonly<Record<string, DirectFlag>>;

/**
 * Parses the arguments after a command id the way oclif would, but only for command lines whose
 * meaning is beyond doubt: long flags this command declares, each at most once, with plain values.
 * Anything else (a positional word, a short flag, `--`, `--help`, an unknown or repeated flag, a
 * missing, empty or dash-led value, a malformed integer, a boolean given a value) returns
 * `undefined`, and the caller hands the whole call to oclif, which then reports exactly what it
 * always has. So the direct path can be wrong only by declining, never by answering differently.
 *
 * @param args Arguments after the command id.
 * @param flags The command's flags, base flags included.
 * @returns The flags by name with defaults applied, or `undefined` to decline.
 * @example
 * ```ts
 * parseDirectArgv(['--store', 'a.sqlite', '--id=7'], { store: { type: 'string' }, id: { type: 'integer', required: true } });
 * // { store: 'a.sqlite', id: 7 }
 * ```
 */
export function parseDirectArgv(args: readonly string[], flags: DirectFlags): Record<string, unknown> | undefined {
  const values: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--') || arg === '--') return undefined;
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (!Object.hasOwn(flags, name) || Object.hasOwn(values, name)) return undefined;
    const flag = flags[name]!;
    if (flag.type === 'boolean') {
      if (eq !== -1) return undefined;
      values[name] = true;
      continue;
    }
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
    // `-` alone is a value (standard input); oclif reads other dash-led words by its own rules.
    if (value === undefined || value === '' || (value.startsWith('-') && value !== '-')) return undefined;
    if (flag.type === 'integer') {
      const number = integerOrUndefined(value, name);
      if (number === undefined) return undefined;
      values[name] = number;
    } else {
      values[name] = value;
    }
  }
  for (const [name, flag] of Object.entries(flags)) {
    if (Object.hasOwn(values, name)) continue;
    if (flag.required === true) return undefined;
    if (flag.default !== undefined) values[name] = flag.default;
  }
  return values;
}

/** The value as `parsePythonInt` reads it, or `undefined` where it would refuse (oclif then reports it). */
function integerOrUndefined(value: string, name: string): number | undefined {
  try {
    return parsePythonInt(value, `--${name}`);
  } catch {
    return undefined;
  }
}
