import type { CheckpointStore } from '@session-checkpoint/core';
import type { CheckpointSelector, LanggraphState, LanggraphWrite } from './types.js';

/**
 * The state at one checkpoint, verified: the channel values exactly as the saver's `getTuple`
 * rebuilds them, in their serialised JSON form (LangChain messages as `{ lc: 1, type:
 * "constructor", id, kwargs }`), with metadata, pending writes and the derived `next` nodes.
 * A value the serializer stored as bytes (not JSON) comes back as `{ "$type": tag, "$base64": data }`.
 *
 * @throws CheckpointNotFoundError when the thread or checkpoint has no row.
 * @throws CheckpointIntegrityError naming the checkpoint and channel when a row it needs fails verification.
 * @example
 * ```ts
 * const latest = await langgraphState(store, { threadId: 'chat-1' });
 * const step3 = await langgraphState(store, { threadId: 'chat-1', checkpointId: latest.parent_checkpoint_id! });
 * ```
 */
export async function langgraphState(store: CheckpointStore, selector: CheckpointSelector): Promise<LanggraphState> {
  void store;
  void selector;
  throw new Error('not yet');
}

/**
 * The pending writes of one checkpoint (a step's task outputs), in LangGraph's order, with task id,
 * task path, index and channel; values serialised as in {@link langgraphState}.
 *
 * @throws CheckpointNotFoundError when the checkpoint has no row.
 * @example
 * ```ts
 * const writes = await langgraphWrites(store, { threadId: 'chat-1', checkpointId: '1ef…' });
 * ```
 */
export async function langgraphWrites(store: CheckpointStore, selector: CheckpointSelector & { checkpointId: string }): Promise<LanggraphWrite[]> {
  void store;
  void selector;
  throw new Error('not yet');
}
