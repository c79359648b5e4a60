import { CheckpointError } from '@session-checkpoint/core';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { connectionLost, markRetryable, PostgresPoolTimeoutError } from './postgres-errors.js';
import { namingStatements, statementName } from './named-statements.js';

/*
 * The store's pool: pg's Pool opened for a connection string (or the caller's pool, borrowed),
 * with a bounded number of checkouts, every checked-out client guarded, and, when asked, its
 * statements named.
 */

/** The pool's settings, checked, with defaults filled in (`poolLimits` in open-postgres-store.ts). */
export interface PoolLimits {
  max: number;
  connectTimeoutMs: number;
  acquireTimeoutMs: number;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
}

interface PgPoolConfig {
  connectionString: string;
  max: number;
  connectionTimeoutMillis: number;
  statement_timeout?: number;
  lock_timeout?: number;
}

export async function openPool(connectionString: string, limits: PoolLimits, named: boolean): Promise<PostgresPool> {
  let pg: { default: { Pool: new (config: PgPoolConfig) => unknown } };
  try {
    pg = (await import('pg')) as unknown as typeof pg;
  } catch (error) {
    throw new CheckpointError('PostgreSQL stores need the pg package: npm install pg', { cause: error });
  }
  const config: PgPoolConfig = { connectionString: explicitSslMode(connectionString), max: limits.max, connectionTimeoutMillis: limits.connectTimeoutMs };
  // Start-up parameters of every connection: no extra round trip per checkout.
  if (limits.statementTimeoutMs > 0) config.statement_timeout = limits.statementTimeoutMs;
  if (limits.lockTimeoutMs > 0) config.lock_timeout = limits.lockTimeoutMs;
  const pool = new pg.default.Pool(config) as PostgresPool & {
    on(event: 'error', listener: (error: Error) => void): unknown;
    on(event: 'connect', listener: (client: { on(event: 'error', listener: () => void): unknown }) => void): unknown;
  };
  // An idle connection dropped by the server (restart, idle timeout) is reported as a pool
  // 'error' event, which would crash the process unheard; pg has already discarded that
  // connection and the next query opens a new one, so there is nothing else to do.
  pool.on('error', () => undefined);
  // A new connection is handed out while pg is still parsing the server's packet that finished
  // its start-up: pg's pool removes its own 'error' listener at that hand-out, and guardClient
  // attaches ours only once the caller's `await` resumes. A FATAL in the same packet (the server
  // terminating the backend right after start-up) would be emitted with nobody listening and
  // crash the process. The pool's documented 'connect' event runs before the hand-out, so every
  // connection hears its errors from birth; the caller still learns of the loss from its query.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return boundedPool(pool, limits.max, limits.acquireTimeoutMs, named ? namingStatements : undefined);
}

/**
 * The caller's pool without `end` (closing the store must not close what it does not own), its
 * clients guarded and, when `named`, seen through a view that names their statements.
 */
export function borrowed(pool: PostgresPool, named: boolean): PostgresPool {
  return {
    connect: async () => {
      try {
        const client = guardClient(await pool.connect());
        return named ? namingStatements(client) : client;
      } catch (error) {
        throw markRetryable(connectionLost(error));
      }
    },
    end: async () => undefined,
  };
}

/*
 * pg's pool queues a checkout when every connection is in use, and gives up after
 * `connectionTimeoutMillis`, the same limit as a connection attempt, with the same message
 * ("timeout exceeded when trying to connect"): a caller cannot tell a saturated pool from an
 * unreachable server. So the store counts checkouts itself: at most `max` at once, the rest wait
 * in order up to `acquireTimeoutMs` and then fail with PostgresPoolTimeoutError; pg's own queue
 * is never used, and its timeout is left to mean the connection attempt alone.
 */

/**
 * `pool` with at most `max` clients checked out at once, a bounded wait for the next one, and
 * every client guarded ({@link guardClient}); connection failures are marked retryable. `view`
 * (default: the client itself) is what callers get of each checked-out client, for example one
 * that names its statements; it sees the slot-freeing `release`, which it must call through.
 */
function boundedPool(
  pool: PostgresPool,
  max: number,
  acquireTimeoutMs: number,
  view?: (client: PostgresPoolClient) => PostgresPoolClient,
): PostgresPool {
  let inUse = 0;
  const queue: { grant: () => void }[] = [];

  const free = () => {
    const next = queue.shift();
    if (next) next.grant();
    else inUse--;
  };

  /** Takes a slot: `undefined` when one was free (no promise, no turn of the microtask queue), else the wait for one. */
  const acquire = (): Promise<void> | undefined => {
    if (inUse < max) {
      inUse++;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(waiter), 1);
        reject(new PostgresPoolTimeoutError(max, acquireTimeoutMs));
      }, acquireTimeoutMs);
      queue.push(waiter);
    });
  };

  const named = view !== undefined;
  return {
    async connect(): Promise<PostgresPoolClient> {
      const waiting = acquire();
      if (waiting !== undefined) await waiting;
      let client: PostgresPoolClient;
      try {
        client = guardClient(await pool.connect());
      } catch (error) {
        free();
        throw markRetryable(connectionLost(error));
      }
      // pg gives the client a new `release` at every checkout: wrap this checkout's, freeing its slot once.
      const release = client.release as (...args: unknown[]) => unknown;
      let released = false;
      client.release = ((...args: unknown[]) => {
        // Back to pg's pool first, so that the caller granted this slot finds the client there.
        const result = release.apply(client, args);
        if (!released) {
          released = true;
          free();
        }
        return result;
      }) as PostgresPoolClient['release'];
      const out = view === undefined ? client : view(client);
      if (!directQueries.has(out)) directQueries.set(out, directQueryOf(client, named));
      return out;
    },
    end: () => pool.end(),
  };
}

/** What pg answers a statement: its rows and its command tag. */
export interface PgAnswer<R> {
  rows: R[];
  command: string;
}

/** pg's callback form of `Client.query` (node-postgres, "Queries"). */
type CallbackQuery = (text: string | { name: string; text: string; values: readonly unknown[] }, values: readonly unknown[] | ((error: Error | null | undefined, result: PgAnswer<unknown>) => void), callback?: (error: Error | null | undefined, result: PgAnswer<unknown>) => void) => void;

/** Runs one statement by pg's callback form, named when the pool names its statements. */
type DirectQuery = (text: string, values: readonly unknown[], callback: (error: Error | null | undefined, result: PgAnswer<unknown>) => void) => void;

/** The clients (or their named views) the store's own pool handed out, with pg's own `query` of each. */
const directQueries = new WeakMap<object, DirectQuery>();
/** pg's `query` of each guarded client, as it was before {@link guardClient} wrapped it. */
const pgQueries = new WeakMap<object, CallbackQuery>();

function directQueryOf(client: PostgresPoolClient, named: boolean): DirectQuery {
  const query = pgQueries.get(client) as CallbackQuery;
  if (!named) return query as DirectQuery;
  return (text, values, callback) => {
    const name = statementName(text);
    if (name === undefined) query(text, values, callback);
    else query({ name, text, values }, callback);
  };
}

/*
 * Why a direct path beside guardClient's wrapped `query` (docs/decisions/0043-postgresql-reads-
 * without-promoted-garbage.md): measured on Node 24 with pg 8.23, reads through pg's promise form,
 * or through any wrapper that puts a closure of its own around pg's callback (as guardClient's
 * `catch` does), left much of what each read allocated (the result, its rows, their payload
 * strings) alive across the young generation's collections, to be copied into the old generation
 * and freed only by full collections: in a loop of the Mastra domain's 20-message reads each
 * scavenge promoted about 8 MB and took 30-40 ms. The same reads by pg's callback form, the
 * caller's callback handed straight to pg's `query`, left their garbage to short scavenges. Only
 * the store's own pool gets it: a pool the caller lends may be any pool with `connect()`
 * (Kysely's `PostgresPool` types the promise form only).
 */

/**
 * Runs one statement on a client the store's own pool checked out, by pg's callback form, its
 * failure mapped as guardClient maps it; `undefined` for any other client (a lent pool's), which
 * the caller then runs by `query`'s promise.
 */
export function queryDirect<R>(client: object, text: string, values: readonly unknown[]): Promise<PgAnswer<R>> | undefined {
  const direct = directQueries.get(client);
  if (direct === undefined) return undefined;
  return new Promise((resolve, reject) => {
    direct(text, values, (error, result) => (error ? reject(markRetryable(connectionLost(error))) : resolve(result as PgAnswer<R>)));
  });
}

/*
 * A pg client checked out of its pool has no 'error' listener (the pool listens to idle clients
 * only). When the server ends its connection meanwhile (pg_terminate_backend, a restart, a
 * failover) while no query is running, as inside a transaction between two statements, pg emits
 * 'error' on it, and an 'error' event nobody hears crashes the process. The caller learns of the
 * loss anyway, from its next query on that client, which fails; that failure is reshaped by
 * connectionLost (postgres-errors.ts).
 */

const guardedClients = new WeakSet<object>();

/**
 * Hears a checked-out client's 'error' events (the failure reaches the caller through its query)
 * and maps its query failures with {@link connectionLost}, marking the retryable ones (`retryable: true`). Idempotent: pools hand the same client out again.
 */
function guardClient<C extends PostgresPoolClient>(client: C): C {
  if (guardedClients.has(client)) return client;
  guardedClients.add(client);
  (client as unknown as { on(event: 'error', listener: () => void): unknown }).on('error', () => undefined);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  pgQueries.set(client, query as CallbackQuery);
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    // A query given a callback or a cursor returns no promise; those are left as they are.
    return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(markRetryable(connectionLost(error)))) : result;
  };
  return client;
}

/** Matches an sslmode that pg 8 treats as `verify-full` while warning on stderr about it. */
const ALIASED_SSLMODE = /([?&]sslmode=)(?:prefer|require|verify-ca)(?=&|#|$)/u;

/**
 * The connection string with `sslmode=prefer|require|verify-ca` spelled `verify-full`, which is
 * what pg 8 does with them anyway (certificate and host name verified), so pg does not print its
 * deprecation "SECURITY WARNING" on stderr. Left alone with `uselibpqcompat=true`, which gives
 * those modes libpq's meaning.
 */
function explicitSslMode(connectionString: string): string {
  if (/[?&]uselibpqcompat=true(?=&|#|$)/u.test(connectionString)) return connectionString;
  return connectionString.replace(ALIASED_SSLMODE, '$1verify-full');
}
