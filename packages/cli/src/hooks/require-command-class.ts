import type { Hook } from '@oclif/core';

/*
 * oclif runs whatever a command module exports as long as it has a `run` function: a plain object
 * or a class without a command's methods "ran", printed nothing and exited 0. Every command must
 * be a command class, oclif's `Command` or BaseCommand (from `@session-checkpoint/cli/plugin`,
 * which has oclif's instance API without extending it); anything else is refused before it runs.
 */

/** True for a class with the shape of an oclif command (from any copy of @oclif/core). */
function isCommandClass(value: unknown): boolean {
  if (typeof value !== 'function') return false;
  const prototype = (value as { prototype?: Record<string, unknown> }).prototype;
  return typeof prototype?.run === 'function' && typeof prototype.parse === 'function' && typeof prototype.init === 'function';
}

/** Refuses a command that is not a class extending oclif's Command (exit 1, `CommandError`). */
const hook: Hook<'prerun'> = async function (options) {
  const command = options.Command as unknown as { id?: unknown; plugin?: { name?: unknown } };
  if (isCommandClass(command)) return;
  const id = typeof command?.id === 'string' ? command.id.replaceAll(':', ' ') : 'command';
  const plugin = typeof command?.plugin?.name === 'string' ? ` of plugin ${command.plugin.name}` : '';
  const error = new Error(`'${id}'${plugin} is not a command class: a command module must export a class extending BaseCommand from @session-checkpoint/cli/plugin`);
  throw Object.assign(error, { oclif: { exit: 1 } });
};

export default hook;
