/*
 * Shapes of the stored Mastra values (JSON: dates as ISO text) and of the framework-free readers'
 * results (`@session-checkpoint/mastra/rows`).
 */

/** A thread as stored. */
export interface StoredThread {
  id: string;
  resourceId: string;
  title?: string;
  metadata?: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** A message as stored (Mastra's `MastraDBMessage` as JSON). */
export interface StoredMessage {
  id: string;
  threadId: string;
  resourceId: string;
  role: string;
  type: string;
  content: unknown;
  createdAt: string;
}

/**
 * One change of a thread's memory (a change row): `save` and `update` hold the new versions of the
 * messages (`value`), `delete` the ids deleted, `thread` the thread record. `count` is the number
 * of messages in the thread after the change.
 */
export interface ChangePayload {
  threadId: string;
  seq: number;
  op: 'save' | 'update' | 'delete' | 'thread';
  count: number;
  /** When the change was made (RFC 3339 with milliseconds): the thread's `updatedAt` when it is the latest. */
  at?: string;
  ids?: string[];
  value?: unknown;
}
