/**
 * Runs tasks one at a time, in call order. A SQLite connection is one session: while a
 * transaction is open on it, any other statement sent on it would join that transaction, so every
 * root-level operation of a single-connection adapter waits its turn here.
 */
export class ExclusiveQueue {
  #tail: Promise<unknown> = Promise.resolve();
  /** Tasks submitted and not yet settled. */
  #pending = 0;

  /** Runs `task` after every task queued before it has settled. */
  run<T>(task: () => T | Promise<T>): Promise<T> {
    let result: Promise<T>;
    if (this.#pending === 0) {
      // Nothing ahead of it: start now rather than a microtask later. Single reads are the common
      // case and each queue hop is a measurable part of a 25 µs get.
      try {
        result = Promise.resolve(task());
      } catch (error) {
        result = Promise.reject(error);
      }
    } else {
      result = this.#tail.then(task);
    }
    this.#pending++;
    this.#tail = result.then(
      () => {
        this.#pending--;
      },
      () => {
        this.#pending--;
      },
    );
    return result;
  }
}
