import type { CheckpointAdapter } from './adapter.js';

/**
 * How an adapter runs {@link CheckpointAdapter.transaction}, written once for every adapter of this
 * repository: an adapter already bound to an open transaction runs `fn` on itself, so nested calls
 * join the outer transaction; any other adapter asks `open` for a new transaction and hands `fn`
 * the adapter that `bind` makes for it. `open` commits when its body resolves and rolls back when
 * it throws; what a scope is (a connection's runner, the in-memory state) is the adapter's affair.
 *
 * @example
 * ```ts
 * transaction<T>(fn: (tx: CheckpointAdapter) => Promise<T>): Promise<T> {
 *   return runInTransaction(this, this.#bound, (body) => this.#connection.transaction(body), (runner) => this.#boundTo(runner), fn);
 * }
 * ```
 */
export function runInTransaction<T, Scope>(
  self: CheckpointAdapter,
  alreadyBound: boolean,
  open: (body: (scope: Scope) => Promise<T>) => Promise<T>,
  bind: (scope: Scope) => CheckpointAdapter,
  fn: (tx: CheckpointAdapter) => Promise<T>,
): Promise<T> {
  if (alreadyBound) return fn(self);
  return open((scope) => fn(bind(scope)));
}
