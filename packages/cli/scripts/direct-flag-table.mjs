// Generates the direct path's flag table (src/direct/flag-table.ts is the placeholder it
// replaces in the CLI bundle) from the built-in command classes' static flags, the same
// declarations oclif's manifest is made from. The direct parser (src/direct/parse-direct-argv.ts)
// models three kinds of flag: a string option, an integer option (integerFlag, Python int()
// rules) and a boolean switch, each optional or required, with a literal default. Any other flag
// feature (options, multiple, exclusive, dependsOn, a custom parse, an env fallback, aliases,
// positional arguments, non-strict parsing...) fails the build: the direct parser would read
// such a command line differently from oclif.
import { readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Flags } from '@oclif/core';

/** Keys that only change help text, never how a command line parses. */
const PRESENTATION = new Set(['description', 'summary', 'helpGroup', 'hidden', 'helpLabel', 'helpValue', 'name']);

/**
 * Reads every command class in `${dist}/commands` and returns `{ [id]: { [flag]: { type, required?, default? } } }`.
 * Throws, naming command and flag, on anything the direct parser does not model.
 */
export async function directFlagTable(dist) {
  const { integerFlag } = await import(pathToFileURL(`${dist}/flags/common-flags.js`).href);
  const integerParse = integerFlag({}).parse;
  const stringParse = Flags.string({}).parse.toString();
  const booleanParse = Flags.boolean({}).parse.toString();
  const table = {};
  const files = readdirSync(`${dist}/commands`).filter((f) => f.endsWith('.js')).sort();
  for (const file of files) {
    const id = file.slice(0, -3);
    const { default: Command } = await import(pathToFileURL(`${dist}/commands/${file}`).href);
    const fail = (what) => {
      throw new Error(`direct flag table: command '${id}' ${what}; teach src/direct/parse-direct-argv.ts and scripts/direct-flag-table.mjs this feature, or the direct path would read it differently from oclif`);
    };
    if (Object.keys(Command.args ?? {}).length > 0) fail('declares positional arguments');
    if (Command.strict === false) fail('is not strict');
    if (Command.enableJsonFlag) fail('enables --json');
    const flags = {};
    for (const [name, flag] of Object.entries({ ...Command.baseFlags, ...Command.flags })) {
      for (const [key, value] of Object.entries(flag)) {
        if (PRESENTATION.has(key) || ['type', 'parse', 'required', 'default', 'input', 'multiple', 'allowNo'].includes(key)) continue;
        if (value === undefined) continue;
        fail(`flag --${name} uses '${key}'`);
      }
      if (flag.multiple === true) fail(`flag --${name} uses 'multiple'`);
      if (flag.allowNo === true) fail(`flag --${name} uses 'allowNo'`);
      if (Array.isArray(flag.input) && flag.input.length > 0) fail(`flag --${name} has preset input`);
      if (flag.default !== undefined && !['string', 'number', 'boolean'].includes(typeof flag.default)) fail(`flag --${name} has a computed default`);
      let type;
      if (flag.type === 'boolean' && flag.parse.toString() === booleanParse) type = 'boolean';
      else if (flag.type === 'option' && flag.parse === integerParse) type = 'integer';
      else if (flag.type === 'option' && flag.parse.toString() === stringParse) type = 'string';
      else fail(`flag --${name} has a custom parse or an unknown type '${flag.type}'`);
      if (type === 'boolean' && (flag.required === true || (flag.default !== undefined && flag.default !== false))) fail(`boolean flag --${name} is required or defaults to true`);
      flags[name] = { type, ...(flag.required === true ? { required: true } : {}), ...(flag.default === undefined ? {} : { default: flag.default }) };
    }
    table[id] = flags;
  }
  return table;
}
