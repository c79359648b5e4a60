import type { CompiledQuery, Kysely } from 'kysely';
import { rawQuery } from './raw-query.js';
import type { SqlFlavor } from './sql-flavor.js';
import { immediateTransaction } from './sqlite/sqlite-connection.js';

/** Runs compiled queries on one database handle (a pool, a connection, a transaction). */
export interface QueryRunner {
  /** Runs one query; resolves to its rows (empty for a statement without `RETURNING`). */
  rows<R>(query: CompiledQuery<R>): Promise<R[]>;
}

/** Runs queries through a Kysely instance's executor, so its dialect, driver and plugins apply. */
export class KyselyQueryRunner implements QueryRunner {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<any>) {
    this.#db = db as Kysely<unknown>;
  }

  async rows<R>(query: CompiledQuery<R>): Promise<R[]> {
    return [...(await this.#db.executeQuery(query)).rows];
  }
}

/**
 * How a {@link KyselyAdapter} reaches its database: a runner for single statements, write
 * transactions, and an optional gate that serialises root-level work on single-connection
 * drivers. Advanced: the front doors build one; implement it only to plug in another driver path.
 */
export interface AdapterConnection {
  /** Runs single statements outside any explicit transaction (each one commits on its own). */
  readonly runner: QueryRunner;
  /**
   * Runs `fn` in one write transaction over a runner bound to it: commit when it resolves,
   * roll back when it throws. On SQLite the transaction starts with `BEGIN IMMEDIATE`, so the
   * write lock is taken (and `busy_timeout` waited for) up front rather than failing with
   * `SQLITE_BUSY` when a read would later upgrade.
   */
  transaction<T>(fn: (runner: QueryRunner) => Promise<T>): Promise<T>;
  /**
   * Present on single-connection drivers: runs a root-level operation when no transaction holds
   * the connection. Absent where every call gets its own connection (a pool).
   */
  exclusive?<T>(fn: () => Promise<T>): Promise<T>;
  /** Releases the driver. */
  close(): Promise<void>;
}

/** Options of {@link KyselyConnection}. */
export interface KyselyConnectionOptions {
  /** Destroy the Kysely instance on close. Default is `false`: the caller owns it. */
  ownsDatabase?: boolean;
}

/**
 * The general path: every statement through Kysely's executor. Transactions hold one connection
 * (`db.connection()`), which on SQLite also holds Kysely's single-connection mutex, so nothing else
 * can slip into an open transaction.
 */
export class KyselyConnection implements AdapterConnection {
  readonly runner: QueryRunner;
  readonly #db: Kysely<any>;
  readonly #flavor: SqlFlavor;
  readonly #ownsDatabase: boolean;

  constructor(db: Kysely<any>, flavor: SqlFlavor, options: KyselyConnectionOptions = {}) {
    this.#db = db;
    this.#flavor = flavor;
    this.#ownsDatabase = options.ownsDatabase ?? false;
    this.runner = new KyselyQueryRunner(db);
  }

  transaction<T>(fn: (runner: QueryRunner) => Promise<T>): Promise<T> {
    // Kysely's own transaction detects a PostgreSQL transaction aborted by a swallowed error
    // (COMMIT answering ROLLBACK) and throws instead of reporting success.
    if (this.#flavor === 'postgres') return this.#db.transaction().execute((trx) => fn(new KyselyQueryRunner(trx)));
    return this.#db.connection().execute((conn) =>
      immediateTransaction((statement) => conn.executeQuery(rawQuery(statement)), () => fn(new KyselyQueryRunner(conn))),
    );
  }

  async close(): Promise<void> {
    if (this.#ownsDatabase) await this.#db.destroy();
  }
}
