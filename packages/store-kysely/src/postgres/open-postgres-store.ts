import { CheckpointValidationError, type CheckpointStore, type CheckpointStoreOptions } from '@session-checkpoint/core';
import type { PostgresPool } from 'kysely';
import { KyselyAdapter } from '../kysely-adapter.js';
import type { CheckpointDatabase } from '../schema.js';
import { storeOver } from '../store-options.js';
import { connectionFailure, postgresTarget, type PostgresTarget } from './postgres-errors.js';
import { borrowed, openPool, type PoolLimits } from './postgres-pool.js';
import { checkSchemaName } from './postgres-schema-name.js';

/** Options of {@link openPostgresAdapter}. */
export interface PostgresAdapterOptions {
  /**
   * Schema holding the store's two tables; created (with the tables) when missing. Default is
   * `"public"`. Give each application, or each test run, its own schema to isolate it.
   */
  schema?: string;
  /** Create the schema and tables when missing. Default is `true`; `false` throws `StoreNotFoundError`. */
  create?: boolean;
  /**
   * Connections of the pool opened for a connection string: at most this many calls of this
   * process talk to the server at once, the others wait ({@link acquireTimeoutMs}). Every process
   * opens its own pool, so the server sees up to `poolSize` x processes connections (keep that
   * under its `max_connections`, 100 by default). Default is `10`. Ignored when a pool is given.
   *
   * @example
   * ```ts
   * await openPostgresStore(url, { poolSize: 4 }); // 16 workers x 4 = 64 connections
   * ```
   */
  poolSize?: number;
  /**
   * How long a call waits for a connection when all `poolSize` of them are in use, in ms; then it
   * fails with a {@link PostgresPoolTimeoutError} (`retryable: true`) instead of waiting for ever.
   * Default is `30000`. Ignored when a pool is given (pg's `connectionTimeoutMillis` bounds its queue).
   */
  acquireTimeoutMs?: number;
  /**
   * Longest a single SQL statement may run on the server, in ms (PostgreSQL's `statement_timeout`,
   * set on each connection); a statement over it fails with SQLSTATE `57014` (query_canceled) and
   * its transaction is rolled back. Default is `0`: no limit of ours (the server's or the role's
   * setting applies, none unless configured). Ignored when a pool is given (set `statement_timeout` on it).
   */
  statementTimeoutMs?: number;
  /**
   * Longest a statement may wait for a lock, in ms (PostgreSQL's `lock_timeout`, set on each
   * connection): a write waiting on another writer of the same thread, or on a table lock, fails
   * after it with SQLSTATE `55P03` (lock_not_available, `retryable: true`). Default is `0`: no limit
   * of ours (the server's setting applies). Ignored when a pool is given (set `lock_timeout` on it).
   */
  lockTimeoutMs?: number;
  /**
   * How long one connection attempt may take (TCP connect, TLS, start-up) before it fails with
   * an `ETIMEDOUT` error naming host and port, in ms. Default is `10000`. Ignored when a pool is
   * given (set `connectionTimeoutMillis` on it).
   */
  connectTimeoutMs?: number;
  /**
   * Run the store's statements as named (prepared) statements, parsed once per connection.
   * Default is `false`: measured on a quiet machine (three interleaved runs of
   * tools/bench/scripts/pg-write-cost.mjs), unnamed statements took less server CPU per LangGraph
   * put and putWrites and were faster in every run; under heavy load the named ones had looked
   * cheaper (docs/decisions/0015-postgresql-named-statements-opt-in.md). Try it on your own server before turning it
   * on; leave it off behind a transaction-pooling proxy that cannot keep a connection's prepared
   * statements (PgBouncer in transaction mode before 1.21).
   *
   * @example
   * ```ts
   * await openPostgresStore(url, { preparedStatements: true });
   * ```
   */
  preparedStatements?: boolean;
}

/** Connection attempts give up after this long unless `connectTimeoutMs` says otherwise. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** Connections of the store's own pool unless `poolSize` says otherwise. */
export const DEFAULT_POOL_SIZE = 10;
/** A call waits this long for a connection of a saturated pool unless `acquireTimeoutMs` says otherwise. */
export const DEFAULT_ACQUIRE_TIMEOUT_MS = 30_000;

/** Options of {@link openPostgresStore}: the database's and the store's. */
export interface PostgresStoreOptions extends PostgresAdapterOptions, CheckpointStoreOptions {}

/**
 * A PostgreSQL connection: a connection string (`postgres://user@host:5432/db`) or a `pg.Pool`
 * (anything with `connect()` and `end()`). A pool you pass stays yours: closing the store does not end it.
 */
export type PostgresConnection = string | PostgresPool;

/**
 * Opens a PostgreSQL store and returns its adapter; {@link openPostgresStore} wraps it in a
 * `CheckpointStore`. Creates the schema and tables when missing, in one transaction under an
 * advisory lock; validates them otherwise. `pg` is loaded on first use, so SQLite users never need it.
 *
 * Failures to connect name host and port: socket errors (`ECONNREFUSED`, `ETIMEDOUT` after
 * `connectTimeoutMs`) as Node system errors, others (TLS refused by the server, host not found)
 * as {@link PostgresConnectionError}. Once open, a call that fails because the server went away
 * (restart, failover, terminated connection), because the pool stayed saturated past
 * `acquireTimeoutMs` ({@link PostgresPoolTimeoutError}), or on a lock or serialization conflict
 * rejects with an error carrying `retryable: true` ({@link isRetryablePostgresError}); the pool
 * drops the dead connections and the next call opens fresh ones.
 *
 * @throws StoreSchemaError when the schema holds incompatible store tables.
 * @example
 * ```ts
 * const adapter = await openPostgresAdapter(process.env.DATABASE_URL!, { schema: 'checkpoints' });
 * ```
 */
export async function openPostgresAdapter(connection: PostgresConnection, options: PostgresAdapterOptions = {}): Promise<KyselyAdapter> {
  const schema = checkSchemaName(options.schema ?? 'public');
  const limits = poolLimits(options);
  // Kysely is loaded here, not by the package's main entry, which SQLite users load too.
  const [{ Kysely, PostgresDialect }, { ensurePostgresSchema }, { PgConnection }] = await Promise.all([
    import('kysely'),
    import('./postgres-schema.js'),
    import('./pg-connection.js'),
  ]);
  const named = options.preparedStatements ?? false;
  const pool = typeof connection === 'string' ? await openPool(connection, limits, named) : borrowed(connection, named);
  const db = new Kysely<CheckpointDatabase>({ dialect: new PostgresDialect({ pool }) });
  try {
    await ensurePostgresSchema(db, schema, options.create ?? true);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw connectionFailure(error, targetOf(connection));
  }
  // Kysely compiles the statements; they run on pg directly (pg-connection.ts). Closing the
  // adapter destroys the Kysely instance, which ends the pool (a borrowed pool's `end` does nothing).
  const direct = new PgConnection(pool, () => db.destroy());
  return new KyselyAdapter(db, { flavor: 'postgres', schema, connection: direct, capabilities: { multiProcess: true, persistent: true } });
}

/**
 * Opens a PostgreSQL checkpoint store: for many workers on many hosts sharing sessions. The same
 * contract as SQLite; ids are `bigint` identities returned as numbers.
 *
 * @example
 * ```ts
 * const store = await openPostgresStore('postgres://app@db:5432/app', { schema: 'checkpoints' });
 * const threads = new Checkpointer(store, { maxHistory: 20 });
 * ```
 */
export async function openPostgresStore(connection: PostgresConnection, options: PostgresStoreOptions = {}): Promise<CheckpointStore> {
  return storeOver(await openPostgresAdapter(connection, options), options);
}

/** Host and port of a connection string, or of a pg.Pool's options, for messages. */
function targetOf(connection: PostgresConnection): PostgresTarget {
  if (typeof connection === 'string') return postgresTarget(connection);
  const options = (connection as { options?: { connectionString?: string; host?: string; port?: number } }).options ?? {};
  const target = postgresTarget(options.connectionString);
  return { host: options.host ?? target.host, port: options.port ?? target.port };
}

/** The pool settings of `options`, checked, with defaults filled in. */
function poolLimits(options: PostgresAdapterOptions): PoolLimits {
  const check = (name: keyof PostgresAdapterOptions, value: number, min: number, what: string) => {
    if (!Number.isSafeInteger(value) || value < min || value > 2 ** 31 - 1) throw new CheckpointValidationError(`${name} must be ${what}`);
    return value;
  };
  return {
    max: check('poolSize', options.poolSize ?? DEFAULT_POOL_SIZE, 1, 'a positive integer (connections)'),
    connectTimeoutMs: check('connectTimeoutMs', options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, 1, 'a positive integer (milliseconds)'),
    acquireTimeoutMs: check('acquireTimeoutMs', options.acquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS, 1, 'a positive integer (milliseconds)'),
    statementTimeoutMs: check('statementTimeoutMs', options.statementTimeoutMs ?? 0, 0, 'a non-negative integer (milliseconds; 0 for no limit)'),
    lockTimeoutMs: check('lockTimeoutMs', options.lockTimeoutMs ?? 0, 0, 'a non-negative integer (milliseconds; 0 for no limit)'),
  };
}

