import type { CompiledQuery } from 'kysely';
import type { QueryRunner } from '../query-runner.js';
import type { SqliteDatabaseLike, SqliteStatementLike } from './sqlite-database.js';

/** Prepared statements kept per connection; the adapter's templates need about fifteen. */
const MAX_CACHED_STATEMENTS = 64;

/**
 * Runs compiled queries straight on a better-sqlite3 connection, preparing each SQL text once.
 * Kysely's SQLite driver prepares on every call, which costs more than a one-row query itself.
 * Queries run synchronously; the promise only keeps the {@link QueryRunner} shape.
 */
export class SqliteStatementRunner implements QueryRunner {
  readonly #database: SqliteDatabaseLike;
  readonly #statements = new Map<string, SqliteStatementLike>();

  constructor(database: SqliteDatabaseLike) {
    this.#database = database;
  }

  rows<R>(query: CompiledQuery<R>): Promise<R[]> {
    try {
      const statement = this.#statement(query.sql);
      if (!statement.reader) {
        statement.run(query.parameters);
        return Promise.resolve([]);
      }
      return Promise.resolve(statement.all(query.parameters) as R[]);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Runs SQL text without parameters. */
  exec(sqlText: string): void {
    this.#database.exec(sqlText);
  }

  #statement(sqlText: string): SqliteStatementLike {
    let statement = this.#statements.get(sqlText);
    if (!statement) {
      statement = this.#database.prepare(sqlText);
      // Per-call queries (prune, delete by ids) vary; keep the cache bounded.
      if (this.#statements.size < MAX_CACHED_STATEMENTS) this.#statements.set(sqlText, statement);
    }
    return statement;
  }
}
