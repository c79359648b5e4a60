/*
 * Idle expiry for Agents sessions: the store's sweep (`CheckpointStore.expireIdle`) over the
 * sessions' namespace. Every row of a session (items, parts, operations) carries its session id,
 * so a session goes whole or not at all, and never while it is written: see
 * docs/decisions/0030-idle-expiry.md.
 */
import { scheduleIdleExpiry, type CheckpointStore, type ExpireIdleResult, type ScheduledExpiry } from '@session-checkpoint/core';
import { DEFAULT_NAMESPACE } from './checkpoint-session.js';

/** Options of {@link expireIdleSessions}. */
export interface SessionExpiryOptions {
  /** How long a session must have gone without a write: milliseconds, or text such as `30d`, `12h`, `1d12h`. */
  idleFor: string | number;
  /** The sessions' namespace. Default is the session's default, `openai-agents`. */
  namespace?: string;
  /** Delete; without it the call is a dry run. Default is `false`. */
  apply?: boolean;
  /** The time the idle period is counted back from. Default is now. */
  now?: Date;
}

/**
 * Deletes the Agents sessions of a store whose newest write is older than `idleFor`, each with all
 * its rows, except pinned ones (`store.pin(sessionId, { namespace })`); a dry run unless
 * `apply: true`. Pass the store of your sessions (`session.store`).
 *
 * @example
 * ```ts
 * const { expired } = await expireIdleSessions(session.store, { idleFor: '30d', apply: true });
 * ```
 */
export function expireIdleSessions(store: CheckpointStore, options: SessionExpiryOptions): Promise<ExpireIdleResult> {
  return store.expireIdle({ ...options, namespace: options.namespace ?? DEFAULT_NAMESPACE });
}

/**
 * Runs {@link expireIdleSessions} with `apply: true` every `every` in the background (the timer
 * does not keep the process alive); stop it before closing the store.
 *
 * @example
 * ```ts
 * const expiry = scheduleSessionExpiry(store, { idleFor: '30d', every: '1h' });
 * await expiry.stop();
 * ```
 */
export function scheduleSessionExpiry(
  store: CheckpointStore,
  options: { idleFor: string | number; every: string | number; namespace?: string; onResult?: (result: ExpireIdleResult) => void; onError?: (error: unknown) => void },
): ScheduledExpiry {
  return scheduleIdleExpiry(store, { ...options, namespace: options.namespace ?? DEFAULT_NAMESPACE });
}
