/*
 * Idle expiry for the saver's threads: the store's sweep (`CheckpointStore.expireIdle`) over the
 * saver's namespace, where a session is a thread and every row of a thread (checkpoints, pieces,
 * parts, pending writes) carries the thread id as its session. A thread goes whole or not at all,
 * and never while it is written: see docs/decisions/0030-idle-expiry.md.
 */
import { scheduleIdleExpiry, type ExpireIdleResult, type ScheduledExpiry } from '@session-checkpoint/core';
import type { SessionCheckpointSaver } from './saver.js';

/** Options of {@link expireIdleThreads}. */
export interface ThreadExpiryOptions {
  /** How long a thread must have gone without a write: milliseconds, or text such as `30d`, `12h`, `1d12h`. */
  idleFor: string | number;
  /** Delete; without it the call is a dry run. Default is `false`. */
  apply?: boolean;
  /** The time the idle period is counted back from. Default is now. */
  now?: Date;
}

/**
 * Deletes the saver's threads whose newest write (checkpoint, pending write) is older than
 * `idleFor`, each with all its rows, except pinned ones ({@link pinThread}); a dry run unless
 * `apply: true`. `expired` lists the threads (as `sessionId`) with the ids that went.
 *
 * @example
 * ```ts
 * const { expired } = await expireIdleThreads(saver, { idleFor: '30d', apply: true });
 * ```
 */
export function expireIdleThreads(saver: SessionCheckpointSaver, options: ThreadExpiryOptions): Promise<ExpireIdleResult> {
  return saver.store.expireIdle({ ...options, namespace: saver.namespace });
}

/**
 * Runs {@link expireIdleThreads} with `apply: true` every `every` in the background (the timer
 * does not keep the process alive); stop it before closing the store.
 *
 * @example
 * ```ts
 * const expiry = scheduleThreadExpiry(saver, { idleFor: '30d', every: '1h' });
 * await expiry.stop();
 * ```
 */
export function scheduleThreadExpiry(
  saver: SessionCheckpointSaver,
  options: { idleFor: string | number; every: string | number; onResult?: (result: ExpireIdleResult) => void; onError?: (error: unknown) => void },
): ScheduledExpiry {
  return scheduleIdleExpiry(saver.store, { ...options, namespace: saver.namespace });
}

/** Keeps a thread from idle expiry; resolves to whether it was pinned already. */
export function pinThread(saver: SessionCheckpointSaver, threadId: string): Promise<boolean> {
  return saver.store.pin(threadId, { namespace: saver.namespace });
}

/** Removes a thread's pin; resolves to whether it was pinned. */
export function unpinThread(saver: SessionCheckpointSaver, threadId: string): Promise<boolean> {
  return saver.store.unpin(threadId, { namespace: saver.namespace });
}
