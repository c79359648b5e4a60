import { ACTIONS } from '../actions/registry.js';
import { runCommand } from '../lifecycle/run-command.js';
import { FLAG_TABLE } from './flag-table.js';
import { parseDirectArgv } from './parse-direct-argv.js';

/*
 * The direct path: a built-in command runs without loading oclif at all (its configuration,
 * parser and command class are most of a call's start-up). It runs only when the outcome cannot
 * differ from oclif's: `main` calls it only when no plugin could change the command
 * (plugin-manifests.ts), and it declines argv that does not parse beyond doubt
 * (parse-direct-argv.ts). Declined calls go to oclif, which runs the same action through the
 * same lifecycle (`runCommand`).
 */

/**
 * Runs a built-in command without oclif when the argv parses beyond doubt. Returns the exit
 * code, or `undefined` when the call must go to oclif.
 *
 * @param argv Arguments after the program name.
 * @example
 * ```ts
 * const code = (await runDirect(argv)) ?? (await runOclif(argv));
 * ```
 */
export async function runDirect(argv: readonly string[]): Promise<number | undefined> {
  const [id, ...rest] = argv;
  if (id === undefined || !Object.hasOwn(FLAG_TABLE, id) || !Object.hasOwn(ACTIONS, id)) return undefined;
  const flags = parseDirectArgv(rest, FLAG_TABLE[id]!);
  if (flags === undefined) return undefined;
  const action = await ACTIONS[id]!();
  return runCommand({ parse: async () => flags, action });
}

/**
 * Whether `argv` names a command the direct path knows (before its flags are looked at).
 *
 * @example
 * ```ts
 * isDirectCommand(['get', '--id', '1']); // true in the bundle
 * ```
 */
export function isDirectCommand(argv: readonly string[]): boolean {
  const id = argv[0];
  return id !== undefined && Object.hasOwn(FLAG_TABLE, id);
}
