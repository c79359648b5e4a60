import { DIRECT_KIND } from '../flags/flag-builders.js';
import type { DirectFlag, DirectFlags } from './parse-direct-argv.js';

/*
 * Which declared flags the direct parser (parse-direct-argv.ts) reads exactly as oclif would: a
 * plain string option, an integer option with Python int() rules (integerFlag) and a boolean
 * switch, each optional or required, with a literal default. The build uses it to make the
 * built-in commands' flag table (scripts/direct-flag-table.mjs, which fails on anything else);
 * BaseCommand#parse and the plugin runner use it at run time, and hand anything else to oclif.
 */

/** Keys that only change help text, never how a command line parses. */
const PRESENTATION = new Set(['description', 'summary', 'helpGroup', 'hidden', 'helpLabel', 'helpValue', 'name']);
/** Keys the direct parser models (the rest of a definition must be unset). */
const MODELLED = new Set(['type', 'parse', 'required', 'default', 'input', 'multiple', 'allowNo']);

/** A flag definition as far as this module reads it (oclif's shape). */
type FlagDefinition = Readonly<Record<string, unknown>>;

/**
 * The direct parser's reading of one flag definition, or the reason it has none (a flag feature
 * it does not model: `options`, `multiple`, `env`, a custom `parse`, a computed default...).
 *
 * @example
 * ```ts
 * directFlagOf(Flags.string({ required: true })); // { type: 'string', required: true }
 * directFlagOf(Flags.string({ options: ['a'] }));  // "uses 'options'"
 * ```
 */
export function directFlagOf(flag: FlagDefinition): DirectFlag | string {
  for (const [key, value] of Object.entries(flag)) {
    if (value !== undefined && !PRESENTATION.has(key) && !MODELLED.has(key)) return `uses '${key}'`;
  }
  if (flag.multiple === true) return "uses 'multiple'";
  if (flag.allowNo === true) return "uses 'allowNo'";
  if (Array.isArray(flag.input) && flag.input.length > 0) return 'has preset input';
  if (flag.default !== undefined && !['string', 'number', 'boolean'].includes(typeof flag.default)) return 'has a computed default';
  // The builders mark their parse functions (flag-builders.ts); a custom `parse` has no mark.
  const kind = typeof flag.parse === 'function' ? (flag.parse as { [DIRECT_KIND]?: unknown })[DIRECT_KIND] : undefined;
  const type = flag.type === 'boolean' ? (kind === 'boolean' ? 'boolean' : undefined) : flag.type === 'option' && (kind === 'string' || kind === 'integer') ? kind : undefined;
  if (type === undefined) return `has a custom parse or an unknown type '${String(flag.type)}'`;
  if (type === 'boolean' && (flag.required === true || (flag.default !== undefined && flag.default !== false))) return 'is a boolean that is required or defaults to true';
  return { type, ...(flag.required === true ? { required: true } : {}), ...(flag.default === undefined ? {} : { default: flag.default as string | number | boolean }) };
}

/**
 * The direct parser's table for a command's flags (base flags included), or `undefined` when
 * any of them is beyond it.
 *
 * @example
 * ```ts
 * const table = directFlagsOf({ ...Hello.baseFlags, ...Hello.flags });
 * const values = table && parseDirectArgv(argv, table); // undefined: let oclif parse
 * ```
 */
export function directFlagsOf(flags: Readonly<Record<string, FlagDefinition>>): DirectFlags | undefined {
  const table: Record<string, DirectFlag> = {};
  for (const [name, flag] of Object.entries(flags)) {
    const direct = directFlagOf(flag);
    if (typeof direct === 'string') return undefined;
    table[name] = direct;
  }
  return table;
}
