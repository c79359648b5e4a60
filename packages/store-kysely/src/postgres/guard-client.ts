import type { PostgresPoolClient } from 'kysely';
import { CONNECT_TIMEOUT, markRetryable } from './retryable-error.js';

/*
 * A pg client checked out of its pool has no 'error' listener (the pool listens to idle clients
 * only). When the server ends its connection meanwhile (pg_terminate_backend, a restart, a
 * failover) while no query is running, as inside a transaction between two statements, pg emits
 * 'error' on it, and an 'error' event nobody hears crashes the process. The caller learns of the
 * loss anyway, from its next query on that client, which fails. That failure is a plain Error
 * ("Connection terminated unexpectedly", "Client has encountered a connection error and is not
 * queryable"); it is given the shape of the server's own errors (SQLSTATE `08006`
 * connection_failure, `severity`), so callers and the CLI (DatabaseError) handle it as one.
 */

/** The SQLSTATE of a lost connection: class 08, connection_failure. */
const CONNECTION_FAILURE = '08006';

/** pg's messages for a client whose connection is gone. */
const LOST = /Connection terminated|not queryable|connection error/iu;

const guardedClients = new WeakSet<object>();

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

/**
 * Hears a checked-out client's 'error' events (the failure reaches the caller through its query)
 * and maps its query failures with {@link connectionLost}, marking the retryable ones (`retryable: true`). Idempotent: pools hand the same client out again.
 */
export function guardClient<C extends PostgresPoolClient>(client: C): C {
  if (guardedClients.has(client)) return client;
  guardedClients.add(client);
  (client as unknown as { on(event: 'error', listener: () => void): unknown }).on('error', () => undefined);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    // A query given a callback or a cursor returns no promise; those are left as they are.
    return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(markRetryable(connectionLost(error)))) : result;
  };
  return client;
}
