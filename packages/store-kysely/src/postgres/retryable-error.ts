/*
 * Which PostgreSQL failures a caller may simply retry. A server restart, a failover, an
 * administrator's pg_terminate_backend, a saturated pool, a lock or serialization conflict: the
 * call failed as a whole (a transaction that was cut off was rolled back by the server), and the
 * same call a moment later can succeed on a fresh connection. Those errors get `retryable: true`;
 * anything else (bad input, a broken schema, a statement timeout, an integrity failure) is left
 * unmarked, because repeating it gives the same answer.
 *
 * One caveat any client of a remote database has: when a connection is lost while a COMMIT is
 * under way, the server may have committed before the loss. The store's writes are safe to
 * repeat in that case (the LangGraph saver's puts and writes are idempotent per checkpoint and
 * task), but a bare `store.create` repeated may add a second row.
 */

/**
 * SQLSTATEs after which the same call may succeed: class 08 (connection exception), 40001
 * (serialization failure), 40P01 (deadlock), 53000 and 53300 (insufficient resources, too many
 * connections), 55P03 (lock not available: `lockTimeoutMs`), 57P01-57P03 (admin or crash
 * shutdown, cannot connect now: a restart).
 */
const RETRYABLE_SQLSTATE = /^08|^(?:40001|40P01|53000|53300|55P03|57P01|57P02|57P03)$/u;

/** Socket errors of a connection attempt or a live connection while the server is away. */
/**
 * pg's message for a connection attempt that timed out ("Connection terminated due to connection
 * timeout"): a connection never made, not one lost.
 */
export const CONNECT_TIMEOUT = /due to connection timeout/iu;

const RETRYABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * True when `error` is a PostgreSQL failure that the same call may get past when repeated: it
 * carries `retryable: true` (set by the store on the errors it passes up), or it is a server or
 * socket error of a kind a restart, a failover or a conflict produces.
 *
 * @example
 * ```ts
 * for (let attempt = 1; ; attempt++) {
 *   try { return await graph.invoke(input, config); }
 *   catch (e) { if (!isRetryablePostgresError(e) || attempt === 5) throw e; await sleep(100 * attempt); }
 * }
 * ```
 */
export function isRetryablePostgresError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ((error as { retryable?: unknown }).retryable === true) return true;
  if (error instanceof AggregateError) return error.errors.some(isRetryablePostgresError);
  const { code, severity, syscall } = error as { code?: unknown; severity?: unknown; syscall?: unknown };
  // pg's plain Error for a connection attempt that timed out (the server restarting, overloaded).
  if (code === undefined && error instanceof Error && CONNECT_TIMEOUT.test(error.message)) return true;
  if (typeof code !== 'string') return false;
  if (typeof severity === 'string') return RETRYABLE_SQLSTATE.test(code);
  return typeof syscall === 'string' && RETRYABLE_SOCKET.has(code);
}

/**
 * `error` with `retryable: true` set when {@link isRetryablePostgresError} says so; the same
 * object, so its class, `code` and `severity` stay what the driver made them.
 */
export function markRetryable(error: unknown): unknown {
  if (error instanceof Error && isRetryablePostgresError(error) && (error as { retryable?: unknown }).retryable !== true) {
    try {
      Object.defineProperty(error, 'retryable', { value: true, enumerable: true, configurable: true, writable: true });
    } catch {
      // A frozen error stays as it is: the guard still recognises it by its code.
    }
  }
  return error;
}
