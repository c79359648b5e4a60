/*
 * What the inspector's server asks of the store: the shapes the page draws. The readers
 * themselves (threads, timeline, state, writes, diff) are the CLI's `threads`/`state`/`diff`
 * readers; reader-source.ts adapts them to this interface, so the server and the page never
 * depend on a reader's exact return types.
 */

/** Which line of history: a LangGraph thread (and checkpoint namespace), a session, or a plain session. */
export interface ThreadRef {
  /** `langgraph`, `openai-agents` or `checkpoints`. */
  readonly family: string;
  /** Thread id (LangGraph) or session id (sessions, plain checkpoints). */
  readonly thread: string;
  /** Store namespace the rows live in. */
  readonly namespace: string;
  /** LangGraph checkpoint namespace (`''` is the root graph); absent for other families. */
  readonly checkpointNs?: string | undefined;
}

/** One thread or session in the list. */
export interface ThreadSummary extends ThreadRef {
  /** Checkpoints (LangGraph, plain) or items (sessions). */
  readonly count: number;
  /** Stored bytes of its rows. */
  readonly bytes: number;
  /** Time of the first and latest row (ISO 8601), when known. */
  readonly first?: string | null | undefined;
  readonly latest?: string | null | undefined;
  /** Every checkpoint namespace of a LangGraph thread. */
  readonly checkpointNamespaces?: readonly string[] | undefined;
}

/** One step of a timeline. */
export interface TimelineEntry {
  /** The step's id as the readers take it back (`state`, `diff`): a checkpoint id, a position or a row id. */
  readonly id: string;
  /** The step it was made from; `null` for the first. Forks are steps sharing a parent. */
  readonly parent: string | null;
  /** When it was written (ISO 8601), when known. */
  readonly createdAt?: string | null | undefined;
  /** LangGraph's `metadata.step`, a position, or `null`. */
  readonly step?: number | null | undefined;
  /** LangGraph's `metadata.source` (`input`, `loop`, `update`, `fork`), or another short label. */
  readonly label?: string | null | undefined;
  /** Stored bytes of the step's rows (what the size chart draws). */
  readonly bytes: number;
  /** Whether every row of the step passed verification. */
  readonly verified: boolean;
  /** Why it failed verification. */
  readonly error?: string | null | undefined;
  /** Channels the step's writes touched, when the reader knows them cheaply. */
  readonly channels?: readonly string[] | undefined;
}

/** One page of a timeline, latest first. */
export interface TimelinePage {
  readonly entries: readonly TimelineEntry[];
  /** Pass as `before` to get the page of earlier steps; `null` when this page reaches the first step. */
  readonly next: string | null;
  /** Steps in the whole timeline, when known. */
  readonly total?: number | undefined;
}

/** An RFC 6902 operation. */
export interface PatchOperation {
  readonly op: string;
  readonly path: string;
  readonly from?: string;
  readonly value?: unknown;
}

/** The store as the inspector reads it. Every method only reads. */
export interface InspectSource {
  /** Every thread and session of the store (or of the namespace the command was given). */
  threads(): Promise<readonly ThreadSummary[]>;
  /** A page of a timeline, latest first; `before` is a page's `next`. */
  timeline(ref: ThreadRef, page: { before?: string | undefined; limit: number }): Promise<TimelinePage>;
  /** The verified state at a step (the latest when `id` is absent), as the `state` command prints it. */
  state(ref: ThreadRef, id?: string): Promise<Record<string, unknown>>;
  /** The writes of a step (pending writes, appended items, the row), as JSON. */
  writes(ref: ThreadRef, id: string): Promise<unknown>;
  /** The RFC 6902 patch that turns the state at `from` into the state at `to`. */
  diff(ref: ThreadRef, from: string, to: string): Promise<readonly PatchOperation[]>;
}
