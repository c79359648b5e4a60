/*
 * Result shapes of the framework-free readers (`@session-checkpoint/openai-agents/rows`), in the
 * CLI's snake_case JSON.
 */

import type { RowError } from '@session-checkpoint/core/toolkit';

/** A failure of one row, as a reader reports it instead of throwing (the entry stays visible). */
export type { RowError };

/** One OpenAI Agents session of a store namespace. */
export interface SessionSummary {
  family: 'openai-agents';
  namespace: string;
  /** The session id (named `thread_id` like the other families' listings). */
  thread_id: string;
  /** Always `[""]`: sessions have no checkpoint namespaces. */
  checkpoint_ns: string[];
  /** Items in the history. */
  count: number;
  /** UTF-8 bytes of the payloads of every row of the session (items, parts, transaction records). */
  bytes: number;
  first_created_at: string;
  latest_created_at: string;
}

/**
 * One step of a session's timeline: one item row (the items of one `addItems` call, or of one
 * history transaction). Positions count items from 1, oldest first.
 */
export interface SessionTimelineEntry {
  /** The position of the row's last item, as text (the step's id in the CLI and inspector). */
  checkpoint_id: string;
  /** The position before the row's first item, as text; `null` for the first row. */
  parent_checkpoint_id: string | null;
  checkpoint_ns: '';
  /** Position of the row's first and last item. */
  first_position: number;
  position: number;
  /** Items in the row. */
  items: number;
  created_at: string;
  /** UTF-8 bytes stored for this step: its row and its part rows. */
  bytes: number;
  row_id: number;
  status: 'verified' | 'failed';
  error?: RowError;
}

/** A page of a timeline, newest first. */
export interface TimelinePage<E> {
  entries: E[];
  /** Pass as `cursor` to read the next (older) page; `null` when this page is the last. */
  next_cursor: string | null;
}

/** A session's history, or its first `position` items. */
export interface SessionState {
  family: 'openai-agents';
  namespace: string;
  session_id: string;
  /** The position of the last item returned (`0` for an empty history). */
  position: number;
  /** The items as `getItems()` returns them, in JSON (a `Uint8Array` field as JSON.stringify writes it). */
  items: unknown[];
}

/** Where a reader looks. */
export interface SessionRowsPlace {
  /** Store namespace of the session's rows. Default is `"openai-agents"` (the session's default). */
  namespace?: string;
}
