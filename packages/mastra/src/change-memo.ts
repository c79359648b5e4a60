/** What a memory domain last wrote or read of a thread's newest change row, as the store held it then. */
export interface RememberedChange {
  /** The change row's number (`c/<thread>/<seq>`). */
  seq: number;
  /** The thread's message count after it (the row's `count`). */
  count: number;
  /** The SHA-256 the store recorded for the row. */
  sha256: string;
}

/** Threads remembered per domain object: enough for the threads one process serves at a time. */
const DEFAULT_THREADS = 4096;

/**
 * The newest change row of each thread a memory domain saw last, so a save can check it in the
 * statement that reads the saved ids' rows (the remembered row, by its ref, must still hold that
 * SHA-256) instead of reading and parsing the thread's newest change row. A hint, never an
 * answer: change rows are numbered densely from 1 by every writer, so row `seq` present with
 * the remembered hash and row `seq + 1` free (the unique ref of the row the save inserts) means
 * it is the newest; any other outcome forgets the thread and takes the reading path. Bounded: the
 * least recently used thread goes first.
 */
export class ChangeMemo {
  readonly #threads = new Map<string, RememberedChange>();
  readonly #max: number;

  constructor(max = DEFAULT_THREADS) {
    this.#max = max;
  }

  /** The thread's newest change as last seen, or `undefined`. */
  get(threadId: string): RememberedChange | undefined {
    const found = this.#threads.get(threadId);
    if (found !== undefined) {
      // Most recently used last, so the first key is the one to drop.
      this.#threads.delete(threadId);
      this.#threads.set(threadId, found);
    }
    return found;
  }

  set(threadId: string, value: RememberedChange): void {
    this.#threads.delete(threadId);
    this.#threads.set(threadId, value);
    if (this.#threads.size > this.#max) this.#threads.delete(this.#threads.keys().next().value as string);
  }

  delete(threadId: string): void {
    this.#threads.delete(threadId);
  }

  clear(): void {
    this.#threads.clear();
  }
}
