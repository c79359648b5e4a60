import type { StoredRun } from './rows/workflow-types.js';

/**
 * What a domain object remembers of the store's rows between calls, so that a write can state
 * what it expects in its own statement instead of reading first: a hint, never an answer. The
 * store checks the hint where the write happens (a conditional insert, or a hash compared in the
 * read the write needs anyway); any other outcome forgets the key and takes the reading path.
 */

/** What a memory domain last wrote or read of a thread's newest change row, as the store held it then. */
export interface RememberedChange {
  /** The change row's number (`c/<thread>/<seq>`). */
  seq: number;
  /** The thread's message count after it (the row's `count`). */
  count: number;
  /** The SHA-256 the store recorded for the row. */
  sha256: string;
}

/**
 * A run's refs and session id, derived once from its workflow name and run id (each derivation
 * escapes both ids): what a persist of the remembered run would otherwise derive on every call.
 */
export interface RunRefs {
  /** The run record's ref (`runRef`). */
  run: string;
  /** The prefix of the run's snapshot refs (`snapshotPrefix`); snapshot `n` is this and `pad(n)`. */
  snapshots: string;
  /** The session id of the run's rows (`sessionOf(runId)`). */
  sessionId: string;
}

/** What a workflows domain last wrote or read of a run, as the store held it then. */
export interface RememberedRun {
  /** The run's record. */
  run: StoredRun;
  /** The refs of `run` (its workflow name and run id). */
  refs: RunRefs;
  /** The SHA-256 the store recorded for the record's row. */
  recordSha256: string;
  /** The newest snapshot's number. */
  seq: number;
  /**
   * The SHA-256 of the newest snapshot's row as this object wrote it: the text the store's
   * verified-text memo keeps for it, dropped when the next persist supersedes it. Never checked
   * against the store (the conditional insert checks the snapshot's ref).
   */
  snapshotSha256: string;
}

/** Keys remembered per domain object by default: enough for the threads or runs one process serves at a time. */
export const DEFAULT_REMEMBERED = 4096;

/**
 * A bounded map of what was last seen per key (a thread id; a run's {@link Remembered.runKey}):
 * the least recently used key goes first.
 *
 * - Memory domain: each thread's newest change row. Change rows are numbered densely from 1 by
 *   every writer, so row `seq` present with the remembered hash and row `seq + 1` free (the unique
 *   ref of the row the save inserts) means it is the newest.
 * - Workflows domain: each run's record and newest snapshot number, checked by the persist's
 *   conditional insert (the next snapshot goes in only while that record and snapshot are still
 *   the store's).
 */
export class Remembered<V> {
  readonly #entries = new Map<string, V>();
  readonly #max: number;

  constructor(max = DEFAULT_REMEMBERED) {
    this.#max = max;
  }

  /** The key of a run: workflow names and run ids are free text, so a NUL separates them. */
  static runKey(workflowName: string, runId: string): string {
    return `${workflowName}\u0000${runId}`;
  }

  /** The value as last seen, or `undefined`. */
  get(key: string): V | undefined {
    const found = this.#entries.get(key);
    if (found !== undefined) {
      // Most recently used last, so the first key is the one to drop.
      this.#entries.delete(key);
      this.#entries.set(key, found);
    }
    return found;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
