import type { CheckpointStore } from '@session-checkpoint/core';
import type { Family, ThreadSelector, ThreadSummary } from './types.js';

/**
 * The threads and sessions of a store, most recently active first. With `namespace`, the threads
 * of every family in that store namespace; without, those of each family's default namespace
 * (`langgraph`, `openai-agents`, and `default` for plain checkpoints). A session of plain
 * checkpoints is one whose rows no family claims.
 *
 * @example
 * ```ts
 * await listThreads(store, { namespace: 'chat' }); // [{ family: 'langgraph', thread_id: 't-1', count: 42, ... }]
 * ```
 */
export async function listThreads(store: CheckpointStore, options: { namespace?: string } = {}): Promise<ThreadSummary[]> {
  void store;
  void options;
  throw new Error('not yet');
}

/**
 * The family and store namespace of a thread: `selector.family` when given, else the one family
 * whose rows hold the thread.
 *
 * @throws CheckpointNotFoundError when no family holds it; CheckpointValidationError (naming the
 *   families) when several do and `family` is not given.
 */
export async function resolveFamily(store: CheckpointStore, selector: ThreadSelector): Promise<{ family: Family; namespace: string }> {
  void store;
  void selector;
  throw new Error('not yet');
}
