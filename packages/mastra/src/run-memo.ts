import type { StoredRun } from './rows/workflow-types.js';

/** What a workflows domain last wrote or read of a run, as the store held it then. */
export interface RememberedRun {
  /** The run's record. */
  run: StoredRun;
  /** The SHA-256 the store recorded for the record's row. */
  recordSha256: string;
  /** The newest snapshot's number. */
  seq: number;
}

/** Runs remembered per domain object: enough for the runs one process drives at a time. */
const DEFAULT_RUNS = 4096;

/**
 * The run records and newest snapshot numbers a workflows domain saw last, so a persist can try
 * one conditional insert (the next snapshot, only while that record and that snapshot are still
 * the store's) instead of reading both in a transaction. A hint, never an answer: the store checks
 * the hint in the insert's own statement, and a refused insert forgets the run and takes the
 * reading path. Bounded: the least recently used run goes first.
 */
export class RunMemo {
  readonly #runs = new Map<string, RememberedRun>();
  readonly #max: number;

  constructor(max = DEFAULT_RUNS) {
    this.#max = max;
  }

  static key(workflowName: string, runId: string): string {
    return `${workflowName}\u0000${runId}`;
  }

  /** The run as last seen, or `undefined`. */
  get(key: string): RememberedRun | undefined {
    const found = this.#runs.get(key);
    if (found !== undefined) {
      // Most recently used last, so the first key is the one to drop.
      this.#runs.delete(key);
      this.#runs.set(key, found);
    }
    return found;
  }

  set(key: string, value: RememberedRun): void {
    this.#runs.delete(key);
    this.#runs.set(key, value);
    if (this.#runs.size > this.#max) this.#runs.delete(this.#runs.keys().next().value as string);
  }

  delete(key: string): void {
    this.#runs.delete(key);
  }

  clear(): void {
    this.#runs.clear();
  }
}
