import { Command } from '@oclif/core';
import { BUILTINS } from '../commands/index.js';
import type { CommandDefinition } from './define-command.js';
import { baseFlags, oclifFlags } from './oclif-flags.js';
import { runBuiltin } from './run-command.js';

/*
 * The built-in commands as oclif command classes, for oclif's explicit command discovery
 * (package.json `oclif.commands`: strategy `explicit`, this module's `COMMANDS`). oclif reads them
 * for its manifest, its help and `plugins`; the CLI itself runs a built-in on its own route
 * (main.ts), and so does oclif if it ever runs one of these classes: `run()` hands the command
 * line to the same parse and lifecycle.
 */

/** The oclif class of one declaration, built on oclif's real `Command`. */
function commandClass(definition: CommandDefinition): Command.Class {
  return class extends Command {
    static override id = definition.id;
    static override summary = definition.summary;
    static override description = definition.description;
    static override examples = [...definition.examples];
    static override baseFlags = baseFlags;
    static override flags = oclifFlags(definition.flags);

    /** The built-in route: parse with the declaration, run the action, print one document. */
    async run(): Promise<void> {
      process.exitCode = await runBuiltin(definition, this.argv);
    }
  };
}

/** Every built-in command's oclif class, by id. */
export const COMMANDS: Record<string, Command.Class> = Object.fromEntries(BUILTINS.map((definition) => [definition.id, commandClass(definition)]));
