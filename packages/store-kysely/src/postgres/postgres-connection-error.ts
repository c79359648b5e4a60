import { isCheckpointError } from '@session-checkpoint/core';

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

/** Matches an sslmode that pg 8 treats as `verify-full` while warning on stderr about it. */
const ALIASED_SSLMODE = /([?&]sslmode=)(?:prefer|require|verify-ca)(?=&|#|$)/u;

/**
 * The connection string with `sslmode=prefer|require|verify-ca` spelled `verify-full`, which is
 * what pg 8 does with them anyway (certificate and host name verified), so pg does not print its
 * deprecation "SECURITY WARNING" on stderr. Left alone with `uselibpqcompat=true`, which gives
 * those modes libpq's meaning.
 */
export function explicitSslMode(connectionString: string): string {
  if (/[?&]uselibpqcompat=true(?=&|#|$)/u.test(connectionString)) return connectionString;
  return connectionString.replace(ALIASED_SSLMODE, '$1verify-full');
}
