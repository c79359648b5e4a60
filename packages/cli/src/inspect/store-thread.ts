import type { CheckpointStore } from '@session-checkpoint/core';
import { readerSource } from './reader-source.js';
import type { InspectSource, ThreadRef } from './source.js';
import { resolveFamily } from './threads.js';
import type { ThreadSelector } from './types.js';

/**
 * The {@link InspectSource} over a store and the {@link ThreadRef} a command's thread flags name
 * (the family found from the rows when not given; `--checkpoint-ns` is a LangGraph thread's
 * namespace and a Mastra run's workflow name): what `timeline`, `state --step` and `diff
 * --from-step` read through, so that another source can serve them the same way.
 *
 * @throws CheckpointNotFoundError for an unknown thread; CheckpointValidationError when the id names threads of several families.
 * @example
 * ```ts
 * const { source, ref } = await storeThread(store, { threadId: 'chat-1' });
 * ```
 */
export async function storeThread(store: CheckpointStore, selector: ThreadSelector): Promise<{ source: InspectSource; ref: ThreadRef }> {
  const { family, namespace } = await resolveFamily(store, selector);
  const ref: ThreadRef = { family, namespace, threadId: selector.threadId, ...(family === 'langgraph' ? { checkpointNs: selector.checkpointNs ?? '' } : family === 'mastra-workflow' && selector.checkpointNs !== undefined ? { checkpointNs: selector.checkpointNs } : {}) };
  return { source: readerSource(store, { namespace }), ref };
}
