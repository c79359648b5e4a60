import { UsageError } from '../errors/usage-error.js';

/** A declared flag as far as this check needs it: does it take a value? */
interface DeclaredFlag {
  type?: string;
}

/**
 * Refuses a long flag whose name is not declared but is a member of every object
 * (`--valueOf`, `--constructor`, `--__proto__`): oclif's parser looks flags up by plain property
 * access, so it would accept such a name, or fail with a meaningless message. The error is the one
 * oclif gives any other unknown flag: `Nonexistent flag: --valueOf` (a usage error, exit 2).
 * Values (the word after a flag that takes one) and everything after `--` are left alone.
 *
 * @param args Arguments after the command id.
 * @param flags The command's declared flags by name (base flags included).
 * @throws UsageError for the first such flag.
 * @example
 * ```ts
 * refuseInheritedFlagNames(['--id', '1', '--valueOf'], { id: { type: 'option' } }); // throws
 * ```
 */
export function refuseInheritedFlagNames(args: readonly string[], flags: Readonly<Record<string, DeclaredFlag>>): void {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return;
    if (!arg.startsWith('--')) continue;
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (Object.hasOwn(flags, name)) {
      if (eq === -1 && flags[name]!.type === 'option') i++;
      continue;
    }
    const bare = name.startsWith('no-') ? name.slice(3) : name;
    if (name in Object.prototype || bare in Object.prototype) {
      throw new UsageError(`Nonexistent flag: --${name}`);
    }
  }
}
