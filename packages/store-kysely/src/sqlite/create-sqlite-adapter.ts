import { CheckpointValidationError } from '@session-checkpoint/core';
import { nonNegativeInteger } from '@session-checkpoint/core/internal';
import { PreparedAdapterParts } from '../adapter-parts.js';
import { KyselyAdapter } from '../kysely-adapter.js';
import { sqliteReader } from '../sql-reader.js';
import { sqliteStoreNeedsWrite } from './ensure-sqlite-schema.js';
import { frozenSqliteQueries } from './frozen-sqlite-queries.js';
import { hardenStoreFiles, narrowStoreFiles } from './harden-permissions.js';
import { SqliteConnection } from './sqlite-connection.js';
import { switchToWal } from './switch-to-wal.js';
import type { SqliteDatabaseLike } from './sqlite-database.js';
import { DEFAULT_BUSY_TIMEOUT_MS, type SqliteAdapterOptions } from './sqlite-options.js';
import { inspectSqliteFile } from './validate-sqlite-file.js';

/** Options of {@link createSqliteAdapter}. */
export interface CreateSqliteAdapterOptions extends SqliteAdapterOptions {
  /** Close the database when the adapter closes. Default is `false`: the caller opened it. */
  ownsDatabase?: boolean;
  /** Path shown in messages and hardened to 0600. Default is `database.name`. */
  location?: string;
}

/**
 * A store adapter over a better-sqlite3 database you opened yourself. Validates the file with
 * plain reads (an incompatible file is not touched), creates or migrates the schema under
 * `BEGIN IMMEDIATE`, then switches a file database to WAL, sets `synchronous` and the busy
 * timeout, and restricts the files to their owner.
 *
 * Kysely is loaded only when it is needed: to create or migrate the schema, and for the rare
 * per-call queries (prune, delete by ids). Validating a current store and the hot queries run
 * on the better-sqlite3 handle with SQL frozen from the query builder.
 *
 * Prefer {@link openSqliteAdapter}, which also creates the file owner-only.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const adapter = await createSqliteAdapter(new Database(':memory:'), { ownsDatabase: true });
 * ```
 */
export async function createSqliteAdapter(database: SqliteDatabaseLike, options: CreateSqliteAdapterOptions = {}): Promise<KyselyAdapter> {
  const location = options.location ?? database.name;
  const busyTimeout = nonNegativeInteger(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS, 'busyTimeoutMs');
  const durability = options.durability ?? 'full';
  if (durability !== 'full' && durability !== 'normal') throw new CheckpointValidationError('durability must be "full" or "normal"');

  const ownsDatabase = options.ownsDatabase ?? false;
  try {
    // Connection settings only: none of these writes to the file.
    database.exec(`PRAGMA busy_timeout = ${busyTimeout}`);
    const readOnly = options.readOnly === true || database.readonly === true;
    const create = options.create ?? true;
    const seen = await inspectSqliteFile(sqliteReader(database), location);
    if (sqliteStoreNeedsWrite(seen, location, create, readOnly)) {
      const { migrateSqliteDatabase } = await import('./sqlite-kysely.js');
      await migrateSqliteDatabase(database, location, create);
    }
    if (!database.memory && readOnly) {
      narrowStoreFiles(location);
    } else if (!database.memory) {
      // Only now, after validation: switching to WAL rewrites the file header.
      await switchToWal(database, location, busyTimeout);
      hardenStoreFiles(location);
    }
    database.exec(`PRAGMA synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
  } catch (error) {
    if (ownsDatabase) database.close();
    throw error;
  }
  const parts = new PreparedAdapterParts(
    frozenSqliteQueries(),
    new SqliteConnection(database, { ownsDatabase }),
    database.memory ? { multiProcess: false, persistent: false } : { multiProcess: true, persistent: true },
    async () => (await import('./sqlite-kysely.js')).sqliteCompiler(),
  );
  // The constructor's private form (see PreparedAdapterParts): its public signature takes a Kysely instance.
  return new KyselyAdapter(parts as never);
}
