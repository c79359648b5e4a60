/*
 * Idle expiry: delete whole sessions (LangGraph threads, Agents sessions, plain sessions) whose
 * newest write is older than a cutoff, except pinned ones. The sweep is two steps:
 *
 * 1. a selection outside any transaction: every session's rows, highest id and newest write;
 * 2. per selected session, one transaction that first shuts out every other writer (SQLite's
 *    `BEGIN IMMEDIATE`; PostgreSQL: the adapter's `lockWrites`, a table lock that waits for the
 *    write transactions in flight and holds new ones until the commit), then reads the session
 *    again and deletes it only when nothing changed since step 1 (same row count, same highest
 *    id, newest write still before the cutoff) and no pin appeared.
 *
 * A write that commits before step 2's lock changes the count or the highest id, so the session
 * is kept whole; a write that comes after it waits for the commit and then finds the session gone
 * as a whole. There is no state between the two: a killed sweeper's transaction rolls back.
 * Deletions go through the store's `deleteSession`, so a sealed store's chains and heads follow.
 * See docs/decisions/0030-idle-expiry.md.
 */
import { CheckpointError, CheckpointValidationError } from '../errors.js';
import type { CheckpointAdapter, SessionStatsRow } from '../port/adapter.js';
import { META_NAMESPACE, SEAL_LOCK } from '../port/meta-rows.js';
import { listMeta, readMeta, writeMeta } from '../seal/meta-access.js';
import { parseDuration } from '../validation/duration.js';
import { resolveNamespace } from '../validation/fields.js';
import { nowTimestamp } from '../validation/timestamp.js';
import type { CheckpointStore } from './checkpoint-store.js';

/** Prefix of the metadata entries that pin sessions (`checkpoint_meta` rows on SQL stores). */
export const PIN_PREFIX = 'session-checkpoint/pin/';

/** The metadata key pinning one session: the prefix and `[namespace, sessionId]` as JSON. */
export function pinKey(namespace: string, sessionId: string): string {
  return PIN_PREFIX + JSON.stringify([namespace, sessionId]);
}

/** Options of {@link CheckpointStore.expireIdle}. */
export interface ExpireIdleOptions {
  /** How long a session must have gone without a write: milliseconds, or text such as `30d`, `12h`, `1d12h`. */
  idleFor: string | number;
  /** Only this namespace. Default is every namespace of the store. */
  namespace?: string;
  /** Delete; without it the call is a dry run that reports what would go. Default is `false`. */
  apply?: boolean;
  /** The time the idle period is counted back from. Default is the store's clock (`now` option), else the current time. */
  now?: Date;
}

/** One session of an {@link ExpireIdleResult}. */
export interface ExpiredSession {
  namespace: string;
  sessionId: string;
  /** Rows of the session when it was selected. */
  rows: number;
  /** Their payload bytes. */
  bytes: number;
  /** Its newest write when it was selected. */
  newest: string;
  /** Ids deleted (empty in a dry run and for a session that was kept). */
  deleted: number[];
}

/** Result of {@link CheckpointStore.expireIdle}. */
export interface ExpireIdleResult {
  dryRun: boolean;
  /** Sessions whose newest write is before this normalised timestamp are idle. */
  cutoff: string;
  /** Idle sessions deleted (or, in a dry run, that would be), by namespace and session id. */
  expired: ExpiredSession[];
  /** Idle sessions kept because they are pinned. */
  pinned: { namespace: string; sessionId: string; newest: string }[];
  /** Sessions selected as idle but written (or deleted) by someone else before their turn came: kept as they are. */
  skipped: { namespace: string; sessionId: string; reason: 'written' | 'gone' | 'pinned' }[];
  /** Rows deleted in all (0 in a dry run). */
  deletedRows: number;
  /** Payload bytes of the expired sessions (what a dry run would free). */
  bytes: number;
}

/** A pinned session, as {@link CheckpointStore.pins} lists it. */
export interface PinnedSession {
  namespace: string;
  sessionId: string;
  /** When the pin was set (normalised timestamp). */
  pinnedAt: string;
}

/** Every pin of the store (or of one namespace), by namespace and session id. */
export async function listPins(adapter: CheckpointAdapter, namespace?: string): Promise<PinnedSession[]> {
  const entries = await listMeta(adapter, namespace === undefined ? PIN_PREFIX : PIN_PREFIX + JSON.stringify([namespace]).slice(0, -1) + ',');
  const out: PinnedSession[] = [];
  for (const entry of entries) {
    const parsed = parsePin(entry.key, entry.value);
    if (parsed) out.push(parsed);
  }
  return out.sort((a, b) => compareSessions(a, b));
}

/** Sets or removes one pin; resolves to whether the session was pinned before. */
export async function setPin(adapter: CheckpointAdapter, namespace: string, sessionId: string, pinned: boolean, now: Date): Promise<boolean> {
  const key = pinKey(namespace, sessionId);
  return adapter.transaction(async (tx) => {
    const before = (await readMeta(tx, [key], true)).length > 0;
    if (pinned && !before) await writeMeta(tx, [{ key, value: JSON.stringify({ pinnedAt: nowTimestamp(now) }), ifAbsent: true }]);
    if (!pinned && before) await writeMeta(tx, [{ key, value: null }]);
    return before;
  });
}

/** The sweep (see the top of this file). `sealed`: the store seals its rows, so its seal lock is taken first, as every sealed write takes it. */
export async function expireIdle(store: CheckpointStore, options: ExpireIdleOptions, sealed: boolean, clock: Date): Promise<ExpireIdleResult> {
  if (options === null || typeof options !== 'object') throw new CheckpointValidationError('expireIdle needs options with idleFor');
  const idleMs = parseDuration(options.idleFor, 'idleFor');
  const now = options.now ?? clock;
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new CheckpointValidationError('now must be a valid Date');
  const cutoff = nowTimestamp(new Date(now.getTime() - idleMs));
  const namespace = options.namespace === undefined ? undefined : resolveNamespace(options.namespace);
  const apply = options.apply === true;
  const adapter = store.adapter;
  if (apply && adapter.capabilities.concurrentTransactions && !adapter.lockWrites) {
    throw new CheckpointError('this adapter runs transactions concurrently and has no lockWrites: idle sessions cannot be deleted safely beside writers');
  }
  // Deleting a sealed store's sessions without its keys would leave their heads behind (verify
  // then reports rows deleted outside the store): refuse, as nothing has been touched yet.
  if (apply && !sealed && (await store.isSealed())) {
    throw new CheckpointValidationError('the store is sealed: open it with its keys to expire sessions (their chains and heads must go with them)');
  }
  const stats = await sessionStatsOf(adapter, namespace === undefined ? {} : { namespace });
  const pins = new Set((await listPins(adapter, namespace)).map((p) => pinKey(p.namespace, p.sessionId)));
  const idle = stats.filter((s) => s.newest < cutoff).sort(compareSessions);
  const result: ExpireIdleResult = { dryRun: !apply, cutoff, expired: [], pinned: [], skipped: [], deletedRows: 0, bytes: 0 };
  for (const s of idle) {
    if (pins.has(pinKey(s.namespace, s.sessionId))) {
      result.pinned.push({ namespace: s.namespace, sessionId: s.sessionId, newest: s.newest });
      continue;
    }
    const entry: ExpiredSession = { namespace: s.namespace, sessionId: s.sessionId, rows: s.rows, bytes: s.bytes, newest: s.newest, deleted: [] };
    if (!apply) {
      result.expired.push(entry);
      result.bytes += s.bytes;
      continue;
    }
    const outcome = await store.transaction(async (tx) => {
      const a = tx.adapter;
      if (sealed && a.capabilities.transactionLocks === true) await a.transactionLock?.(SEAL_LOCK);
      await a.lockWrites?.();
      const [current] = await sessionStatsOf(a, { namespace: s.namespace, sessionId: s.sessionId });
      if (current === undefined) return 'gone' as const;
      if (current.rows !== s.rows || current.maxId !== s.maxId || !(current.newest < cutoff)) return 'written' as const;
      if ((await readMeta(a, [pinKey(s.namespace, s.sessionId)])).length > 0) return 'pinned' as const;
      return (await tx.deleteSession(s.sessionId, { namespace: s.namespace, apply: true })).deleted;
    });
    if (typeof outcome === 'string') {
      result.skipped.push({ namespace: s.namespace, sessionId: s.sessionId, reason: outcome });
      continue;
    }
    entry.deleted = outcome;
    result.expired.push(entry);
    result.deletedRows += outcome.length;
    result.bytes += s.bytes;
  }
  return result;
}

/** The adapter's session sums, or its base class's scan when it has none; never the metadata namespace. */
export async function sessionStatsOf(adapter: CheckpointAdapter, query: { namespace?: string; sessionId?: string }): Promise<SessionStatsRow[]> {
  if (!adapter.sessionStats) throw new CheckpointError('this adapter cannot sum up its sessions (no sessionStats)');
  return (await adapter.sessionStats(query)).filter((s) => s.namespace !== META_NAMESPACE);
}

function parsePin(key: string, value: string): PinnedSession | undefined {
  try {
    const [namespace, sessionId] = JSON.parse(key.slice(PIN_PREFIX.length)) as unknown[];
    if (typeof namespace !== 'string' || typeof sessionId !== 'string') return undefined;
    const pinnedAt = (JSON.parse(value) as { pinnedAt?: unknown }).pinnedAt;
    return { namespace, sessionId, pinnedAt: typeof pinnedAt === 'string' ? pinnedAt : '' };
  } catch {
    return undefined;
  }
}

function compareSessions(a: { namespace: string; sessionId: string }, b: { namespace: string; sessionId: string }): number {
  return a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0;
}

/** Options of {@link scheduleIdleExpiry}. */
export interface ScheduledExpiryOptions extends Omit<ExpireIdleOptions, 'apply' | 'now'> {
  /** Time between sweeps: milliseconds or text such as `1h`. The first sweep runs after one period. */
  every: string | number;
  /** Called with each sweep's result. */
  onResult?: (result: ExpireIdleResult) => void;
  /** Called with a sweep's error (the schedule goes on). Default is to drop it. */
  onError?: (error: unknown) => void;
}

/** A running schedule of {@link scheduleIdleExpiry}. */
export interface ScheduledExpiry {
  /** Stops the schedule; resolves when a sweep in progress has ended. */
  stop(): Promise<void>;
}

/**
 * Sweeps idle sessions out of a store every `every`, in the background (`store.expireIdle` with
 * `apply: true`). The timer does not keep the process alive, and a sweep never overlaps the
 * previous one. Stop it before closing the store.
 *
 * @example
 * ```ts
 * const expiry = scheduleIdleExpiry(store, { idleFor: '30d', every: '1h', namespace: 'langgraph' });
 * // ...
 * await expiry.stop();
 * ```
 */
export function scheduleIdleExpiry(store: CheckpointStore, options: ScheduledExpiryOptions): ScheduledExpiry {
  const every = parseDuration(options.every, 'every');
  parseDuration(options.idleFor, 'idleFor');
  if (options.namespace !== undefined) resolveNamespace(options.namespace);
  let running: Promise<void> | undefined;
  let stopped = false;
  const sweep = (): void => {
    if (running !== undefined || stopped) return;
    running = store
      .expireIdle({ idleFor: options.idleFor, apply: true, ...(options.namespace === undefined ? {} : { namespace: options.namespace }) })
      .then((result) => options.onResult?.(result), (error: unknown) => options.onError?.(error))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(sweep, every);
  timer.unref?.();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
