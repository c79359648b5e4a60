/**
 * Every connection of the store's pool stayed in use for `acquireTimeoutMs`: the call waited that
 * long in the pool's queue and gave up, instead of waiting for ever. Nothing was sent to the
 * server. `retryable` is `true`: the same call may succeed once the load drops; a pool that is
 * often saturated wants a larger `poolSize` (within the server's `max_connections`) or fewer
 * concurrent callers per process. Shaped like a server error (`severity`, SQLSTATE `code` `53000`,
 * insufficient_resources), so handlers of driver errors, and the CLI, treat it as one.
 *
 * @example
 * ```ts
 * try { await saver.put(config, checkpoint, metadata, versions); }
 * catch (e) { if (e instanceof PostgresPoolTimeoutError) console.warn(`pool of ${e.poolSize} saturated`); }
 * ```
 */
export class PostgresPoolTimeoutError extends Error {
  override readonly name = 'PostgresPoolTimeoutError';
  /** SQLSTATE `53000` (insufficient_resources). */
  readonly code = '53000';
  /** As on server errors. */
  readonly severity = 'ERROR';
  /** Always `true`: waiting again may find a free connection. */
  readonly retryable = true;
  /** Connections in the pool, every one of them in use. */
  readonly poolSize: number;
  /** How long the call waited for one, in ms. */
  readonly waitedMs: number;

  constructor(poolSize: number, waitedMs: number) {
    super(
      `no PostgreSQL connection free after ${waitedMs} ms: all ${poolSize} connections of the store's pool stayed in use (raise poolSize or acquireTimeoutMs, or run fewer concurrent calls)`,
    );
    this.poolSize = poolSize;
    this.waitedMs = waitedMs;
  }
}
