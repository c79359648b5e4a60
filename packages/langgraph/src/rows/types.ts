/*
 * Result shapes of the framework-free readers (`@session-checkpoint/langgraph/rows`). Field names
 * are snake_case like the CLI's JSON output, so the CLI and the inspector print them as they are.
 */

import type { RowError } from '@session-checkpoint/core/toolkit';

/** A failure of one row, as a reader reports it instead of throwing (the entry stays visible). */
export type { RowError };

/**
 * Where rows come from when they are not this store's: an official saver's database, read by
 * `@session-checkpoint/langgraph/official`. Such rows carry no hash, so nothing read from them is
 * verified; every answer from them says so (`verified: false`, timeline status `"unverified"`).
 */
export type OfficialSource = 'SqliteSaver' | 'PostgresSaver';

/** One LangGraph thread of a store namespace. */
export interface LanggraphThreadSummary {
  family: 'langgraph';
  /** Set on threads of an official saver's store (`./official`): their rows are not verified. */
  source?: OfficialSource;
  verified?: false;
  /** Store namespace holding the rows. */
  namespace: string;
  thread_id: string;
  /** The checkpoint namespaces of the thread (`""` is the root graph), sorted. */
  checkpoint_ns: string[];
  /** Checkpoints over all checkpoint namespaces. */
  count: number;
  /** UTF-8 bytes of the payloads of every row of the thread (checkpoints, writes, parts). */
  bytes: number;
  /** `created_at` of the oldest and newest row (RFC 3339 UTC). */
  first_created_at: string;
  latest_created_at: string;
}

/** One checkpoint of a thread's timeline. */
export interface LanggraphTimelineEntry {
  checkpoint_id: string;
  /** `null` for the first checkpoint of a chain; unknown (`null`) on a failed row. */
  parent_checkpoint_id: string | null;
  checkpoint_ns: string;
  /** The row's `created_at` (whole seconds); `ts` has LangGraph's own time. */
  created_at: string;
  /** LangGraph's checkpoint time (`checkpoint.ts`), when the row could be read. */
  ts?: string;
  /** UTF-8 bytes stored for this step: its checkpoint row, its write rows and their part rows. */
  bytes: number;
  /** Store row id of the checkpoint row; `null` for an official saver's row (they have none). */
  row_id: number | null;
  /**
   * `"verified"`: the rows passed verification; `"failed"`: see `error`; `"unverified"`: a row of
   * an official saver's store, which carries no hash to check.
   */
  status: 'verified' | 'failed' | 'unverified';
  error?: RowError;
  /** The checkpoint's metadata in its stored JSON form (`source`, `step`, `parents`, ...), when verified. */
  metadata?: unknown;
  /** Channels whose value changed at this checkpoint (stored here, in full or as appended items). */
  changed_channels?: string[];
  /** Every channel with a value at this checkpoint (changed here or carried over). */
  channels?: string[];
  /** Channels that tasks wrote as pending writes on this checkpoint. */
  write_channels?: string[];
}

/** A page of a timeline, newest first. */
export interface TimelinePage<E> {
  entries: E[];
  /** Pass as `cursor` to read the next (older) page; `null` when this page is the last. */
  next_cursor: string | null;
}

/** A pending write in the tuple form of LangGraph's `CheckpointTuple.pendingWrites`: [task_id, channel, value]. */
export type PendingWriteTuple = [task_id: string, channel: string, value: unknown];

/**
 * The state of a thread at one checkpoint, in JSON: what `getTuple` rebuilds, with every value in
 * its serialised form (LangChain objects as `{ lc: 1, type: "constructor", id, kwargs }`).
 */
export interface LanggraphState {
  family: 'langgraph';
  /** Set on states read from an official saver's store (`./official`): nothing was verified. */
  source?: OfficialSource;
  verified?: false;
  namespace: string;
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  /** LangGraph's checkpoint time (`checkpoint.ts`). */
  ts: string;
  /** `checkpoint.channel_values` as `getTuple` rebuilds them, serialised. */
  values: Record<string, unknown>;
  /**
   * The nodes that run next, derived from the checkpoint's channel versions: a node whose trigger
   * channel (`branch:to:<node>`, or `__start__`) has a version it has not seen. Equal to
   * `graph.getState().next` for graphs built with StateGraph; sends (`__pregel_tasks`) not counted.
   */
  next: string[];
  /** The metadata as `getTuple` returns it. */
  metadata: unknown;
  /** `pendingWrites` as `getTuple` returns them, values serialised, in LangGraph's order. */
  pending_writes: PendingWriteTuple[];
  /** `checkpoint` without `channel_values` (`v`, `id`, `ts`, `channel_versions`, `versions_seen`). */
  checkpoint: Record<string, unknown>;
}

/** One pending write of a step, with where it comes from. */
export interface LanggraphWrite {
  task_id: string;
  task_path: string;
  /** LangGraph's write index (negative for special channels such as `__error__`). */
  idx: number;
  channel: string;
  /** The value in its serialised JSON form. */
  value: unknown;
}

/** Where a reader looks: the store namespace of the saver's rows. */
export interface RowsPlace {
  /** Store namespace of the LangGraph rows. Default is `"langgraph"` (the saver's default). */
  namespace?: string;
}

/** Which checkpoint of which thread. */
export interface CheckpointSelector extends RowsPlace {
  threadId: string;
  /** Default is `""` (the root graph). */
  checkpointNs?: string;
  /** Default is the latest checkpoint of (thread, checkpoint_ns). */
  checkpointId?: string;
}
