import { Flags } from './flag-builders.js';
import { VERBOSE_ENV } from '../output/stderr-guard.js';

/**
 * `--verbose`, a base flag of every command: warnings (from oclif, Node or a driver) and, on a
 * terminal, progress go to stderr. Default is off: stderr stays empty. The flag itself is read
 * by the stderr guard before oclif starts; declaring it here makes oclif accept and document it.
 *
 * @example
 * ```ts
 * session-checkpoint export --store app.sqlite --output all.json --verbose
 * ```
 */
export const verboseFlag = {
  verbose: Flags.boolean({
    default: false,
    description: `Print warnings and progress on stderr. Default is silence (also $${VERBOSE_ENV}=1).`,
    helpGroup: 'GLOBAL',
  }),
};
