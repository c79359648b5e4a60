import { UsageError } from '../errors/usage-error.js';
import type { CommandContext } from './command-context.js';
import { threadSelector, type ThreadFlags } from './thread-flags.js';

/** Flags of `diff`. */
export interface DiffFlags extends ThreadFlags {
  from?: string | undefined;
  to?: string | undefined;
  'first-change'?: string | undefined;
}

/**
 * `diff`: `{ patch }`, the RFC 6902 patch from the state at `--from` to the state at `--to`; or,
 * with `--first-change POINTER`, the first checkpoint on the line (to `--to`, or the latest)
 * where the value at the pointer differs from its parent's.
 *
 * @example
 * ```ts
 * await diffStates(context); // { family: 'langgraph', from: '…', to: '…', patch: [{ op: 'add', path: '/messages/2', value: {...} }] }
 * ```
 */
export async function diffStates({ flags, openStore }: CommandContext<DiffFlags>): Promise<unknown> {
  const pointer = flags['first-change'];
  if (pointer === undefined && (flags.from === undefined || flags.to === undefined)) throw new UsageError('diff needs --from and --to, or --first-change POINTER');
  if (pointer !== undefined && flags.from !== undefined) throw new UsageError('--first-change walks back from --to (or the latest); it takes no --from');
  const inspect = await import('../inspect/index.js');
  if (pointer !== undefined) inspect.parsePointer(pointer);
  const store = await openStore();
  const selector = threadSelector(flags);
  if (pointer !== undefined) return inspect.firstChange(store, { ...selector, pointer, ...(flags.to === undefined ? {} : { to: flags.to }) });
  return inspect.diffSteps(store, { ...selector, from: flags.from as string, to: flags.to as string });
}
