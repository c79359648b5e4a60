import type { CheckpointStore } from '@session-checkpoint/core';
import type { State, StepSelector, Writes } from './types.js';

/**
 * The state at one step, verified (the latest when `checkpointId` is absent): a LangGraph
 * checkpoint's values as `getTuple` rebuilds them (serialised), a session's items (up to
 * `position`), or a plain checkpoint's payload.
 *
 * @throws CheckpointNotFoundError, CheckpointIntegrityError (a row the state needs fails verification).
 * @example
 * ```ts
 * const state = await readState(store, { threadId: 't-1', checkpointId: '1ef…' });
 * ```
 */
export async function readState(store: CheckpointStore, selector: StepSelector & { position?: number }): Promise<State> {
  void store;
  void selector;
  throw new Error('not yet');
}

/**
 * The pending writes of a step, with task id, task path, index and channel (LangGraph; `[]` for
 * the other families, whose steps have no pending writes).
 *
 * @example
 * ```ts
 * const writes = await readWrites(store, { threadId: 't-1', checkpointId: '1ef…' });
 * ```
 */
export async function readWrites(store: CheckpointStore, selector: StepSelector & { checkpointId: string }): Promise<Writes> {
  void store;
  void selector;
  throw new Error('not yet');
}

/**
 * The document of a state that pointers and diffs address: `values` (LangGraph), `items`
 * (sessions) or `payload` (plain checkpoints).
 *
 * @example
 * ```ts
 * stateDocument(await readState(store, { threadId: 't-1' })); // { messages: [...] }
 * ```
 */
export function stateDocument(state: State): unknown {
  if (state.family === 'langgraph') return state.values;
  if (state.family === 'openai-agents') return state.items;
  return state.payload;
}
