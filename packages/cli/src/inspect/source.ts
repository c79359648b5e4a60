import type { Family, PatchOperation, State, ThreadSummary, Timeline, TimelineEntry, Writes } from './types.js';

/*
 * What the viewer's server asks of the store. reader-source.ts answers it with the inspection
 * readers (index.ts), the same ones `threads`, `state` and `diff` print; the interface lets the
 * server be tested and reasoned about without a store, and keeps every call read-only.
 */

/** Which line of history: a LangGraph thread (and checkpoint namespace), a session, or a plain session. */
export interface ThreadRef {
  readonly family: Family;
  /** Thread id (LangGraph) or session id (sessions, plain checkpoints). */
  readonly threadId: string;
  /** Store namespace the rows live in. */
  readonly namespace: string;
  /** LangGraph checkpoint namespace; `''` (the root graph) when absent. */
  readonly checkpointNs?: string | undefined;
}

/** The store as the viewer reads it. Every method only reads. */
export interface InspectSource {
  /** Every thread and session (of the namespace the command was given, else each family's default). */
  threads(): Promise<readonly ThreadSummary[]>;
  /** A page of a timeline, latest first; `cursor` is a page's `next_cursor`. */
  timeline(ref: ThreadRef, page: { cursor?: string | undefined; limit: number }): Promise<Timeline>;
  /** The verified state at a step (the latest when `id` is absent), as `state` prints it. */
  state(ref: ThreadRef, id?: string): Promise<State>;
  /** The pending writes of a step (LangGraph; `[]` for other families). */
  writes(ref: ThreadRef, id: string): Promise<Writes>;
  /** The RFC 6902 patch that turns the state at `from` into the state at `to`. */
  diff(ref: ThreadRef, from: string, to: string): Promise<readonly PatchOperation[]>;
  /** What a step changed: the patch from its parent's state, or from an empty state for a first step. */
  change(ref: ThreadRef, entry: TimelineEntry): Promise<readonly PatchOperation[]>;
  /**
   * What takes the space, as the `stats` command prints it (per namespace and per thread or
   * session: rows, bytes, oldest, newest). Optional: a source without it answers 404.
   */
  stats?(): Promise<unknown>;
}
