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

/**
 * Reads every command class in `${dist}/commands` and returns `{ [id]: { [flag]: { type, required?, default? } } }`.
 * Throws, naming command and flag, on anything the direct parser does not model. Which flags it
 * models is decided by src/direct/direct-flags.ts (this package's own build of it), which the
 * CLI also uses at run time for plugin commands.
 */
export async function directFlagTable(dist) {
  const { directFlagOf } = await import(new URL('../dist/direct/direct-flags.js', import.meta.url).href);
  const table = {};
  const files = readdirSync(`${dist}/commands`).filter((f) => f.endsWith('.js')).sort();
  for (const file of files) {
    const id = file.slice(0, -3);
    const { default: Command } = await import(pathToFileURL(`${dist}/commands/${file}`).href);
    const fail = (what) => {
      throw new Error(`direct flag table: command '${id}' ${what}; teach src/direct/parse-direct-argv.ts and src/direct/direct-flags.ts this feature, or the direct path would read it differently from oclif`);
    };
    if (Object.keys(Command.args ?? {}).length > 0) fail('declares positional arguments');
    if (Command.strict === false) fail('is not strict');
    if (Command.enableJsonFlag) fail('enables --json');
    const flags = {};
    for (const [name, flag] of Object.entries({ ...Command.baseFlags, ...Command.flags })) {
      const direct = directFlagOf(flag);
      if (typeof direct === 'string') fail(`flag --${name} ${direct}`);
      flags[name] = direct;
    }
    table[id] = flags;
  }
  return table;
}
