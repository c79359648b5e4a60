import { CheckpointNotFoundError } from '@session-checkpoint/core';
import type { CommandContext } from './command-context.js';
import { threadSelector, type ThreadFlags } from './thread-flags.js';

/** Flags of `state`. */
export interface StateFlags extends ThreadFlags {
  checkpoint?: string | undefined;
  path?: string | undefined;
  position?: number | undefined;
}

/**
 * `state`: the verified state at one step of a thread (the latest by default). With `--path`, the
 * state's header and the value at that JSON pointer (`path`, `value`) instead of the whole
 * `values` / `items` / `payload`.
 *
 * @example
 * ```ts
 * await showState(context); // { family: 'langgraph', thread_id: 't-1', checkpoint_id: '…', values: {...}, ... }
 * ```
 */
export async function showState({ flags, openStore }: CommandContext<StateFlags>): Promise<unknown> {
  const inspect = await import('../inspect/index.js');
  if (flags.path !== undefined) inspect.parsePointer(flags.path);
  const store = await openStore();
  const state = await inspect.readState(store, {
    ...threadSelector(flags),
    ...(flags.checkpoint === undefined ? {} : { checkpointId: flags.checkpoint }),
    ...(flags.position === undefined ? {} : { position: flags.position }),
  });
  if (flags.path === undefined) return state;
  const at = inspect.valueAtPointer(inspect.stateDocument(state), flags.path);
  if (!at.found) throw new CheckpointNotFoundError(`nothing at ${JSON.stringify(flags.path)} in this state`);
  const header: Record<string, unknown> = { ...state };
  for (const key of ['values', 'items', 'payload', 'pending_writes', 'checkpoint']) delete header[key];
  return { ...header, path: flags.path, value: at.value };
}
