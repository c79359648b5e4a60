import type { PatchOperation, State } from './types.js';

/*
 * LangGraph's wiring channels: values the graph runtime keeps to schedule nodes, not the agent's
 * state. `state`, `diff` and the viewer hide them unless asked (`--internal`, the viewer's toggle),
 * and say how many they hid. Channels that carry something a person reads (`__interrupt__`,
 * `__error__`, `__resume__`) are not wiring and stay visible.
 */

/**
 * Whether a LangGraph channel is internal wiring: `__start__`, `__end__`, `__pregel_*`, and the
 * edge channels `branch:*`, `start:*` and `join:*` (the forms LangGraph.js has used for edges).
 *
 * @example
 * ```ts
 * isInternalChannel('branch:to:agent'); // true
 * isInternalChannel('messages'); // false
 * ```
 */
export function isInternalChannel(name: string): boolean {
  return name === '__start__' || name === '__end__' || name.startsWith('__pregel_') || /^(branch|start|join):/u.test(name);
}

/** The channel an RFC 6901 pointer starts in (`/branch:to:agent` is in `branch:to:agent`). */
function channelOf(pointer: string): string | undefined {
  const first = pointer.split('/')[1];
  return first === undefined ? undefined : first.replace(/~1/gu, '/').replace(/~0/gu, '~');
}

/**
 * A LangGraph state without its internal channels (in `values` and `pending_writes`), with
 * `internal_hidden` naming what was left out; other families, and a state with none, unchanged.
 *
 * @example
 * ```ts
 * hideInternalChannels(state).values; // { messages: [...] } without __start__ or branch:to:agent
 * ```
 */
export function hideInternalChannels(state: State): State & { internal_hidden?: string[] } {
  if (state.family !== 'langgraph') return state;
  const hidden = new Set(Object.keys(state.values).filter(isInternalChannel));
  const writes = state.pending_writes.filter(([, channel]) => !isInternalChannel(channel));
  for (const [, channel] of state.pending_writes) if (isInternalChannel(channel)) hidden.add(channel);
  if (hidden.size === 0) return state;
  const values = Object.fromEntries(Object.entries(state.values).filter(([name]) => !isInternalChannel(name)));
  return { ...state, values, pending_writes: writes, internal_hidden: [...hidden].sort() };
}

/**
 * A patch between LangGraph states without the operations on internal channels, and how many
 * were left out.
 *
 * @example
 * ```ts
 * hideInternalOperations([{ op: 'remove', path: '/__start__' }]); // { patch: [], hidden: 1 }
 * ```
 */
export function hideInternalOperations(patch: readonly PatchOperation[]): { patch: PatchOperation[]; hidden: number } {
  const kept = patch.filter((operation) => {
    const channel = channelOf(operation.path);
    const from = operation.from === undefined ? undefined : channelOf(operation.from);
    return !(channel !== undefined && isInternalChannel(channel)) && !(from !== undefined && isInternalChannel(from));
  });
  return { patch: kept, hidden: patch.length - kept.length };
}
