import { CheckpointError, CheckpointStore, CheckpointValidationError, type CheckpointStoreOptions } from '@session-checkpoint/core';
import { Kysely, PostgresDialect, type PostgresPool } from 'kysely';
import { KyselyAdapter } from '../kysely-adapter.js';
import type { CheckpointDatabase } from '../schema.js';
import { storeOptions } from '../store-options.js';
import { ensurePostgresSchema } from './ensure-postgres-schema.js';

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
}

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
 * @throws StoreSchemaError when the schema holds incompatible store tables.
 * @example
 * ```ts
 * const adapter = await openPostgresAdapter(process.env.DATABASE_URL!, { schema: 'checkpoints' });
 * ```
 */
export async function openPostgresAdapter(connection: PostgresConnection, options: PostgresAdapterOptions = {}): Promise<KyselyAdapter> {
  const schema = options.schema ?? 'public';
  if (typeof schema !== 'string' || schema.length === 0 || schema.length > 63) {
    throw new CheckpointValidationError('schema must be a PostgreSQL identifier of 1 to 63 characters');
  }
  const pool = typeof connection === 'string' ? await openPool(connection, options.poolSize ?? 10) : borrowed(connection);
  const db = new Kysely<CheckpointDatabase>({ dialect: new PostgresDialect({ pool }) });
  try {
    await ensurePostgresSchema(db, schema, options.create ?? true);
  } catch (error) {
    await db.destroy();
    throw error;
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

/** The caller's pool without `end`: closing the store must not close what it does not own. */
function borrowed(pool: PostgresPool): PostgresPool {
  return { connect: () => pool.connect(), end: async () => undefined };
}

async function openPool(connectionString: string, max: number): Promise<PostgresPool> {
  let pg: { default: { Pool: new (config: { connectionString: string; max: number }) => unknown } };
  try {
    pg = (await import('pg')) as unknown as typeof pg;
  } catch (error) {
    throw new CheckpointError('PostgreSQL stores need the pg package: npm install pg', { cause: error });
  }
  const pool = new pg.default.Pool({ connectionString, max }) as PostgresPool & { on(event: 'error', listener: (error: Error) => void): unknown };
  // An idle connection dropped by the server (restart, idle timeout) is reported as a pool
  // 'error' event, which would crash the process unheard; pg has already discarded that
  // connection and the next query opens a new one, so there is nothing else to do.
  pool.on('error', () => undefined);
  return pool;
}
