import { UsageError } from '../errors/usage-error.js';
import type { Family, ThreadSelector } from '../inspect/types.js';

/** Flags every inspection command shares: which thread of which family in which namespace. */
export interface ThreadFlags {
  thread: string;
  namespace?: string | undefined;
  family?: string | undefined;
  'checkpoint-ns'?: string | undefined;
}

const FAMILIES = ['langgraph', 'openai-agents', 'checkpoints'];

/**
 * The thread selector of parsed flags.
 *
 * @throws UsageError for an unknown `--family`.
 * @example
 * ```ts
 * threadSelector({ thread: 't-1', family: 'langgraph' }); // { threadId: 't-1', family: 'langgraph' }
 * ```
 */
export function threadSelector(flags: ThreadFlags): ThreadSelector {
  if (flags.family !== undefined && !FAMILIES.includes(flags.family)) throw new UsageError(`--family must be one of ${FAMILIES.join(', ')}`);
  return {
    threadId: flags.thread,
    ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
    ...(flags.family === undefined ? {} : { family: flags.family as Family }),
    ...(flags['checkpoint-ns'] === undefined ? {} : { checkpointNs: flags['checkpoint-ns'] }),
  };
}
