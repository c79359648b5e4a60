import { CheckpointValidationError, type CheckpointStore } from '@session-checkpoint/core';
import { langgraphState, langgraphWrites } from '@session-checkpoint/langgraph/rows';
import { sessionState } from '@session-checkpoint/openai-agents/rows';
import { frameworkDocument, frameworkState, isFrameworkFamily } from './framework-families.js';
import { sealStatus } from '../output/records.js';
import { plainState } from './plain-rows.js';
import { resolveFamily } from './threads.js';
import type { Family, SealStatus, State, StepSelector, Writes } from './types.js';

/** A session position given as text (a `checkpoint_id` of a session timeline). */
export function positionOf(text: string): number {
  if (!/^(0|[1-9][0-9]{0,15})$/.test(text)) throw new CheckpointValidationError(`a session position is a non-negative integer, not ${JSON.stringify(text)}`);
  return Number(text);
}

/** A verified state with, on a store opened with keys, its seal status (every row it was built from passed its seal). */
function withSeal<S extends object>(store: CheckpointStore, state: S): S & { seal?: SealStatus } {
  const seal = sealStatus(store);
  return seal === undefined ? state : { ...state, seal };
}

/** The state of a step of a thread whose family is known. */
export async function stateIn(store: CheckpointStore, family: Family, namespace: string, selector: StepSelector & { position?: number }): Promise<State> {
  if (family === 'langgraph') {
    if (selector.position !== undefined) throw new CheckpointValidationError('--position is for OpenAI Agents sessions; a LangGraph step is named by its checkpoint id');
    return withSeal(
      store,
      await langgraphState(store, {
        namespace,
        threadId: selector.threadId,
        checkpointNs: selector.checkpointNs ?? '',
        ...(selector.checkpointId === undefined ? {} : { checkpointId: selector.checkpointId }),
      }),
    );
  }
  if (isFrameworkFamily(family)) return withSeal(store, await frameworkState(store, family, namespace, selector));
  if (family === 'openai-agents') {
    const position = selector.position ?? (selector.checkpointId === undefined ? undefined : positionOf(selector.checkpointId));
    return withSeal(store, await sessionState(store, { namespace, sessionId: selector.threadId, ...(position === undefined ? {} : { position }) }));
  }
  if (selector.position !== undefined) throw new CheckpointValidationError('--position is for OpenAI Agents sessions; a plain checkpoint is named by its id');
  return plainState(store, namespace, selector.threadId, selector.checkpointId);
}

/**
 * The state at one step, verified (the latest when `checkpointId` is absent): a LangGraph
 * checkpoint's values as `getTuple` rebuilds them (serialised), a session's items (up to
 * `position`, or up to `checkpointId` read as a position), or a plain checkpoint's payload.
 *
 * @throws CheckpointNotFoundError, CheckpointIntegrityError (a row the state needs fails verification).
 * @example
 * ```ts
 * const state = await readState(store, { threadId: 't-1', checkpointId: '1ef…' });
 * ```
 */
export async function readState(store: CheckpointStore, selector: StepSelector & { position?: number }): Promise<State> {
  const { family, namespace } = await resolveFamily(store, selector);
  return stateIn(store, family, namespace, selector);
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
  const { family, namespace } = await resolveFamily(store, selector);
  if (family !== 'langgraph') return [];
  return langgraphWrites(store, { namespace, threadId: selector.threadId, checkpointNs: selector.checkpointNs ?? '', checkpointId: selector.checkpointId });
}

/**
 * The document of a state that pointers and diffs address: `values` (LangGraph), `items`
 * (sessions), `payload` (plain checkpoints), `messages` (AI SDK chats), `{ thread, messages }`
 * (Mastra threads) or `snapshot` (Mastra workflow runs).
 *
 * @example
 * ```ts
 * stateDocument(await readState(store, { threadId: 't-1' })); // { messages: [...] }
 * ```
 */
export function stateDocument(state: State): unknown {
  if (state.family === 'langgraph') return state.values;
  if (state.family === 'openai-agents') return state.items;
  if (state.family === 'checkpoints') return state.payload;
  return frameworkDocument(state);
}
