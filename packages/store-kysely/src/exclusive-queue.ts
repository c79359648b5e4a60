/**
 * Runs tasks one at a time, in call order. A SQLite connection is one session: while a
 * transaction is open on it, any other statement sent on it would join that transaction, so every
 * root-level operation of a single-connection adapter waits its turn here.
 */
export class ExclusiveQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` after every task queued before it has settled. */
  run<T>(task: () => T | Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
