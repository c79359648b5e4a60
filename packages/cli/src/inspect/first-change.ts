import type { CheckpointStore } from '@session-checkpoint/core';
import type { FirstChange, ThreadSelector } from './types.js';

/** Options of {@link firstChange}. */
export interface FirstChangeOptions extends ThreadSelector {
  /** RFC 6901 pointer into the state document (`/messages/3/kwargs/content`). */
  pointer: string;
  /** Walk the line ending at this checkpoint. Default is the latest. */
  to?: string;
}

/**
 * The first checkpoint on a thread's line (the parent chain from `to`, oldest first) where the
 * value at `pointer` differs from its parent's: "which step made this value what it is". For
 * LangGraph, checkpoints whose rows do not change the pointer's channel are skipped without
 * rebuilding a state. For sessions the line is the positions (item rows); for plain checkpoints,
 * the rows oldest first.
 *
 * @example
 * ```ts
 * const hit = await firstChange(store, { threadId: 't-1', pointer: '/messages/2' });
 * ```
 */
export async function firstChange(store: CheckpointStore, options: FirstChangeOptions): Promise<FirstChange> {
  void store;
  void options;
  throw new Error('not yet');
}
