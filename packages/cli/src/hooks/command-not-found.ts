import type { Hook } from '@oclif/core';
import { UsageError } from '../errors/usage-error.js';

/**
 * Unknown commands are usage errors (exit 2) naming the valid choices, like argparse's
 * `invalid choice`, instead of oclif's default text on stderr.
 */
const hook: Hook<'command_not_found'> = async function (options) {
  // A topic's commands (`keys new`, `plugins install`) are offered as their topic's word.
  const choices = options.config.commands
    .filter((command) => !command.hidden)
    .map((command) => `'${command.id.split(':')[0]}'`)
    .sort();
  const typed = options.id.replaceAll(':', ' ');
  throw new UsageError(`argument command: invalid choice: '${typed}' (choose from ${[...new Set(choices)].join(', ')})`);
};

export default hook;
