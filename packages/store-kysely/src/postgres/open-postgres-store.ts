import { CheckpointError, CheckpointStore, CheckpointValidationError, type CheckpointStoreOptions } from '@session-checkpoint/core';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { KyselyAdapter } from '../kysely-adapter.js';
import type { CheckpointDatabase } from '../schema.js';
import { storeOptions } from '../store-options.js';
import { connectionFailure, explicitSslMode, postgresTarget, type PostgresTarget } from './postgres-connection-error.js';
import { checkSchemaName } from './postgres-schema-name.js';
import { guardClient } from './guard-client.js';
import { namingStatements } from './named-statements.js';

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
   * Connections of the pool opened for a connection string. Default is `10`. Ignored when a pool
   * is given.
   */
  poolSize?: number;
  /**
   * How long one connection attempt may take (TCP connect, TLS, start-up) before it fails with
   * an `ETIMEDOUT` error naming host and port, in ms. Default is `10000`. Ignored when a pool is
   * given (set `connectionTimeoutMillis` on it).
   */
  connectTimeoutMs?: number;
  /**
   * Run the store's statements as named (prepared) statements, parsed once per connection: about
   * a third less server CPU per LangGraph put or putWrites. Default is `true`. Set `false` behind a
   * transaction-pooling proxy that cannot keep a connection's prepared statements (PgBouncer in
   * transaction mode before 1.21, or without `max_prepared_statements`).
   *
   * @example
   * ```ts
   * await openPostgresStore(pgbouncerUrl, { preparedStatements: false });
   * ```
   */
  preparedStatements?: boolean;
}

/** Connection attempts give up after this long unless `connectTimeoutMs` says otherwise. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

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
 * as {@link PostgresConnectionError}.
 *
 * @throws StoreSchemaError when the schema holds incompatible store tables.
 * @example
 * ```ts
 * const adapter = await openPostgresAdapter(process.env.DATABASE_URL!, { schema: 'checkpoints' });
 * ```
 */
export async function openPostgresAdapter(connection: PostgresConnection, options: PostgresAdapterOptions = {}): Promise<KyselyAdapter> {
  const schema = checkSchemaName(options.schema ?? 'public');
  const timeout = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeout) || timeout <= 0 || timeout > 2 ** 31 - 1) {
    throw new CheckpointValidationError('connectTimeoutMs must be a positive integer (milliseconds)');
  }
  // Kysely is loaded here, not by the package's main entry, which SQLite users load too.
  const [{ Kysely, PostgresDialect }, { ensurePostgresSchema }] = await Promise.all([
    import('kysely'),
    import('./ensure-postgres-schema.js'),
  ]);
  const named = options.preparedStatements ?? true;
  const pool = typeof connection === 'string' ? await openPool(connection, options.poolSize ?? 10, timeout, named) : borrowed(connection, named);
  const db = new Kysely<CheckpointDatabase>({ dialect: new PostgresDialect({ pool }) });
  try {
    await ensurePostgresSchema(db, schema, options.create ?? true);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw connectionFailure(error, targetOf(connection));
  }
  return new KyselyAdapter(db, { flavor: 'postgres', schema, ownsDatabase: true, capabilities: { multiProcess: true, persistent: true } });
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
  const adapter = await openPostgresAdapter(connection, options);
  try {
    return new CheckpointStore(adapter, storeOptions(options));
  } catch (error) {
    await adapter.close();
    throw error;
  }
}

/** Host and port of a connection string, or of a pg.Pool's options, for messages. */
function targetOf(connection: PostgresConnection): PostgresTarget {
  if (typeof connection === 'string') return postgresTarget(connection);
  const options = (connection as { options?: { connectionString?: string; host?: string; port?: number } }).options ?? {};
  const target = postgresTarget(options.connectionString);
  return { host: options.host ?? target.host, port: options.port ?? target.port };
}

/** The caller's pool without `end` (closing the store must not close what it does not own), its clients guarded and naming their statements. */
function borrowed(pool: PostgresPool, named: boolean): PostgresPool {
  return { connect: async () => clientOf(await pool.connect(), named), end: async () => undefined };
}

/** Our own pool, whose clients are guarded (and name their statements) like a borrowed pool's. */
function guarded(pool: PostgresPool, named: boolean): PostgresPool {
  return { connect: async () => clientOf(await pool.connect(), named), end: () => pool.end() };
}

/** A checked-out client, guarded, and seen through a view that names its statements when `named`. */
function clientOf(client: PostgresPoolClient, named: boolean): PostgresPoolClient {
  const guarded = guardClient(client);
  return named ? namingStatements(guarded) : guarded;
}

async function openPool(connectionString: string, max: number, connectionTimeoutMillis: number, named: boolean): Promise<PostgresPool> {
  let pg: { default: { Pool: new (config: { connectionString: string; max: number; connectionTimeoutMillis: number }) => unknown } };
  try {
    pg = (await import('pg')) as unknown as typeof pg;
  } catch (error) {
    throw new CheckpointError('PostgreSQL stores need the pg package: npm install pg', { cause: error });
  }
  const pool = new pg.default.Pool({ connectionString: explicitSslMode(connectionString), max, connectionTimeoutMillis }) as PostgresPool & { on(event: 'error', listener: (error: Error) => void): unknown };
  // An idle connection dropped by the server (restart, idle timeout) is reported as a pool
  // 'error' event, which would crash the process unheard; pg has already discarded that
  // connection and the next query opens a new one, so there is nothing else to do.
  pool.on('error', () => undefined);
  return guarded(pool, named);
}
