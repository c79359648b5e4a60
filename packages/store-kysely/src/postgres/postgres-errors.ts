import { isCheckpointError } from '@session-checkpoint/core';

/*
 * How PostgreSQL failures reach callers: marked `retryable` when the same call may succeed a
 * moment later, a lost connection shaped like a server error, a failed connection attempt naming
 * host and port, and a saturated pool as an error of its own.
 */

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

/**
 * pg's message for a connection attempt that timed out ("Connection terminated due to connection
 * timeout"): a connection never made, not one lost.
 */
const CONNECT_TIMEOUT = /due to connection timeout/iu;

/** Socket errors of a connection attempt or a live connection while the server is away. */
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

/*
 * A pg client whose connection the server ended (pg_terminate_backend, a restart, a failover)
 * fails its next query with a plain Error ("Connection terminated unexpectedly", "Client has
 * encountered a connection error and is not queryable"); it is given the shape of the server's own
 * errors (SQLSTATE `08006` connection_failure, `severity`), so callers and the CLI (DatabaseError)
 * handle it as one. postgres-pool.ts applies it to every query of a checked-out client.
 */

/** The SQLSTATE of a lost connection: class 08, connection_failure. */
const CONNECTION_FAILURE = '08006';

/** pg's messages for a client whose connection is gone. */
const LOST = /Connection terminated|not queryable|connection error/iu;

/**
 * The error for a query that failed because its connection was lost: pg's plain Error becomes one
 * shaped like a server error; server errors (with `severity`) and socket errors (with `syscall`)
 * stay as they are.
 */
export function connectionLost(error: unknown): unknown {
  // A connect that timed out is reported as a timeout (ETIMEDOUT) where the store is opened.
  if (!(error instanceof Error) || !LOST.test(error.message) || CONNECT_TIMEOUT.test(error.message)) return error;
  const { severity, syscall } = error as { severity?: unknown; syscall?: unknown };
  if (severity !== undefined || syscall !== undefined) return error;
  return Object.assign(new Error(`the connection to PostgreSQL was lost (terminated by the server or the network): ${error.message}`, { cause: error }), {
    code: CONNECTION_FAILURE,
    severity: 'FATAL',
  });
}

/*
 * pg reports a failed connection in several shapes: a Node system error (ECONNREFUSED, with the
 * address and port), a plain Error for a timeout ("timeout expired") or a TLS mismatch ("The
 * server does not support SSL connections"), without saying where it tried to connect. Callers
 * (and the CLI, which maps system errors to OSError and server errors to DatabaseError) get one
 * of two shapes instead, each naming host and port.
 */

/** Where a connection string points: host and port as pg resolves them (URL, then PGHOST/PGPORT, then defaults). */
export interface PostgresTarget {
  readonly host: string;
  readonly port: number;
}

/**
 * A connection to PostgreSQL could not be set up (TLS refused, connection closed during
 * start-up, host not found, authentication or database refused by the server). Shaped like the server's own errors (`code` is SQLSTATE `08001`,
 * `severity` `"FATAL"`), so handlers of driver errors treat it as one.
 *
 * @example
 * ```ts
 * try { await openPostgresStore('postgres://db:5432/app?sslmode=require'); }
 * catch (e) { if (e instanceof PostgresConnectionError) console.error(e.host, e.port); }
 * ```
 */
export class PostgresConnectionError extends Error {
  override readonly name = 'PostgresConnectionError';
  /**
   * The server's SQLSTATE when it refused the connection (`28P01` bad password, `3D000` no such
   * database, `53300` too many connections, ...), else `08001` (sqlclient_unable_to_establish_sqlconnection).
   */
  readonly code: string;
  /** As on server errors. */
  readonly severity = 'FATAL';
  /** Host the connection was for. */
  readonly host: string;
  /** Port the connection was for. */
  readonly port: number;

  constructor(target: PostgresTarget, reason: string, options?: ErrorOptions & { code?: string }) {
    super(`could not connect to PostgreSQL at ${target.host}:${target.port}: ${reason}`, options);
    this.code = options?.code ?? '08001';
    this.host = target.host;
    this.port = target.port;
  }
}

/** Host and port a connection string points at, for messages. */
export function postgresTarget(connectionString: string | undefined): PostgresTarget {
  let host = process.env.PGHOST || 'localhost';
  let port = Number(process.env.PGPORT) || 5432;
  if (connectionString !== undefined) {
    try {
      const url = new URL(connectionString);
      if (url.hostname) host = decodeURIComponent(url.hostname);
      if (url.port) port = Number(url.port);
    } catch {
      // Not a URL (key=value form): the defaults above are what pg uses for missing parts.
    }
  }
  return { host, port };
}

/** SQLSTATEs a server answers a connection attempt with: classes 08 and 28, 3D000, 53300, 57P03. */
const CONNECT_SQLSTATE = /^(?:08|28)|^(?:3D000|53300|57P03)$/u;

/** True for a Node.js system error raised by a socket (it names the address and port itself). */
function isSocketError(error: unknown): boolean {
  if (error instanceof AggregateError) return true;
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown };
  // A failed name lookup (ENOTFOUND, EAI_AGAIN) names the host only: it is wrapped to add the port.
  return typeof code === 'string' && typeof syscall === 'string' && syscall !== 'getaddrinfo';
}

/**
 * The error to throw for a failure while opening a PostgreSQL store: store errors, server
 * errors (they carry `severity`) and socket errors pass through, except a server's refusal of the
 * connection itself (authentication, unknown database, too many connections), which gets host and port; a timeout becomes an
 * `ETIMEDOUT` system error naming the address and port; anything else a {@link PostgresConnectionError}.
 */
export function connectionFailure(error: unknown, target: PostgresTarget): unknown {
  if (isCheckpointError(error) || isSocketError(error) || !(error instanceof Error)) return error;
  const { severity, code } = error as { severity?: unknown; code?: unknown };
  if (typeof severity === 'string') {
    // The server refused the connection itself (authentication, database, capacity): say where.
    return typeof code === 'string' && CONNECT_SQLSTATE.test(code)
      ? new PostgresConnectionError(target, error.message, { cause: error, code })
      : error;
  }
  if (/timeout/iu.test(error.message)) {
    return Object.assign(new Error(`connect ETIMEDOUT ${target.host}:${target.port} (connection timeout)`, { cause: error }), {
      code: 'ETIMEDOUT',
      syscall: 'connect',
      address: target.host,
      port: target.port,
    });
  }
  return new PostgresConnectionError(target, error.message, { cause: error });
}

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
