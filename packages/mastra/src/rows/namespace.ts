/** The store namespace Mastra's domains write to unless told otherwise. */
export const MASTRA_NAMESPACE = 'mastra';

/** Row kinds, one per stored concept (docs/mastra.md, "How it is stored"). */
export const KINDS = {
  /** A thread's current record. */
  thread: 'mastra.thread',
  /** A message's current version, in its thread's order. */
  message: 'mastra.message',
  /** Where a message id lives (its thread and row). */
  messageId: 'mastra.message-id',
  /** One change of a thread's memory: messages saved, updated or deleted, or the thread record changed. */
  change: 'mastra.change',
  /** A resource (working memory and metadata). */
  resource: 'mastra.resource',
  /** A workflow run's current record. */
  run: 'mastra.run',
  /** One persisted snapshot of a workflow run. */
  snapshot: 'mastra.snapshot',
  /** A slice of a value larger than a row. */
  part: 'mastra.part',
  /** A thread's lock on an adapter with concurrent transactions and no `transactionLock`: inserted and deleted in one transaction, never committed. */
  lock: 'mastra.lock',
} as const;
