import type { CommandContext } from './command-context.js';

/** Flags of `threads`. */
export interface ThreadsFlags {
  /** Store namespace; absent: each family's default namespace. */
  namespace?: string | undefined;
}

/**
 * `threads`: the LangGraph threads, OpenAI Agents sessions and plain checkpoint sessions of a
 * store, most recently active first. The readers load on use (this module is loaded only for
 * this command), so other commands' start-up does not grow.
 *
 * @example
 * ```ts
 * await listThreads(context); // [{ family: 'langgraph', thread_id: 'chat-1', count: 12, ... }]
 * ```
 */
export async function listThreads({ flags, openStore }: CommandContext<ThreadsFlags>): Promise<unknown> {
  const inspect = await import('../inspect/index.js');
  const store = await openStore();
  return inspect.listThreads(store, flags.namespace === undefined ? {} : { namespace: flags.namespace });
}
