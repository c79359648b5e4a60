import type { AdapterConnection } from '../adapter-connection.js';
import { ExclusiveQueue } from '../exclusive-queue.js';
import type { QueryRunner } from '../query-runner.js';
import { immediateTransaction } from './immediate-transaction.js';
import type { SqliteDatabaseLike } from './sqlite-database.js';
import { SqliteStatementRunner } from './sqlite-statement-runner.js';

/** Options of {@link SqliteConnection}. */
export interface SqliteConnectionOptions {
  /** Close the database on close. Default is `true`. */
  ownsDatabase?: boolean;
}

/**
 * The SQLite fast path: prepared better-sqlite3 statements on the one connection, with every
 * root-level operation queued so nothing runs inside another caller's open transaction.
 * Write transactions start with `BEGIN IMMEDIATE`: the write lock is taken up front, where
 * `busy_timeout` applies, instead of failing with `SQLITE_BUSY` when a deferred transaction
 * would later upgrade to a writer.
 */
export class SqliteConnection implements AdapterConnection {
  readonly runner: SqliteStatementRunner;
  readonly #database: SqliteDatabaseLike;
  readonly #queue = new ExclusiveQueue();
  readonly #ownsDatabase: boolean;

  constructor(database: SqliteDatabaseLike, options: SqliteConnectionOptions = {}) {
    this.#database = database;
    this.#ownsDatabase = options.ownsDatabase ?? true;
    this.runner = new SqliteStatementRunner(database);
  }

  transaction<T>(fn: (runner: QueryRunner) => Promise<T>): Promise<T> {
    return this.#queue.run(() => immediateTransaction((statement) => this.#database.exec(statement), () => fn(this.runner)));
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.#queue.run(fn);
  }

  async close(): Promise<void> {
    // Let queued work finish before the handle goes.
    await this.#queue.run(() => undefined);
    if (this.#ownsDatabase) this.#database.close();
  }
}
