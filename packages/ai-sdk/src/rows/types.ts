/*
 * Result shapes of the framework-free readers (`@session-checkpoint/ai-sdk/rows`), in the CLI's
 * snake_case JSON, like the other families' readers.
 */

import type { RowError } from '@session-checkpoint/core/toolkit';

/** A failure of one row, as a reader reports it instead of throwing (the entry stays visible). */
export type { RowError };

/** Where a reader looks. */
export interface ChatRowsPlace {
  /** Store namespace of the chat rows. Default is `"ai-sdk-chats"`. */
  namespace?: string;
}

/** One chat of a store namespace. */
export interface ChatSummary {
  family: 'ai-sdk';
  namespace: string;
  /** The chat id (named `thread_id` like the other families' listings). */
  thread_id: string;
  /** Always `[""]`: chats have no checkpoint namespaces. */
  checkpoint_ns: string[];
  /** Messages in the chat after its newest save. */
  count: number;
  /** Saves (checkpoints) of the chat. */
  saves: number;
  /** UTF-8 bytes of the payloads of every row of the chat. */
  bytes: number;
  first_created_at: string;
  latest_created_at: string;
}

/**
 * One save of a chat's timeline. A save with `replaced > 0` is a fork: it keeps the first `keep`
 * messages of the chat before it, and the `replaced` messages after them stay in the earlier saves.
 */
export interface ChatTimelineEntry {
  /** The save number, as text (the step's id in the CLI and inspector). */
  checkpoint_id: string;
  /**
   * The save this one follows, as text: the previous save for an append; for a fork (an edit or a
   * regenerate, `replaced > 0`) the older save it branches from, the newest whose messages it
   * keeps whole. `null` for the first save, and for a save that kept no message.
   */
  parent_checkpoint_id: string | null;
  checkpoint_ns: '';
  /** Messages kept from the chat before this save. */
  keep: number;
  /** Messages this save added after them. */
  added: number;
  /** Messages of the chat before this save that it replaced (0 for an append). */
  replaced: number;
  /** Messages in the chat after this save. */
  count: number;
  created_at: string;
  /** UTF-8 bytes stored for this save: its row and its part rows. */
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

/** A chat's messages after one save. */
export interface ChatState {
  family: 'ai-sdk';
  namespace: string;
  chat_id: string;
  /** The save shown (`0` for a chat with no saves). */
  save: number;
  /** The messages as `loadChat` returns them (stored JSON, before the SDK's validation). */
  messages: unknown[];
}
