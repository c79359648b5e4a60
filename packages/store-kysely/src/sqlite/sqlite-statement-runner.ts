import type { CompiledQuery } from 'kysely';
import type { QueryRunner } from '../query-runner.js';
import { checkpointRowReader } from './checkpoint-row-reader.js';
import type { SqliteDatabaseLike, SqliteStatementLike } from './sqlite-database.js';

/** Prepared statements kept per connection; the adapter's templates need about fifteen. */
const MAX_CACHED_STATEMENTS = 64;

/**
 * `INSERT ... RETURNING "id"` of a single row. SQLite materialises RETURNING rows through a
 * temporary table; the same INSERT without it, answered from `lastInsertRowid`, is cheaper (1-2 us
 * of CPU per create in an isolated better-sqlite3 test; docs/benchmarks.md). Only the exact
 * `returning "id"` suffix qualifies, so every other statement runs as written.
 */
const INSERT_RETURNING_ID = /^insert into (?![^;]*\), \()[^;]* returning "id"$/;

/**
 * Runs compiled queries straight on a better-sqlite3 connection, preparing each SQL text once.
 * Kysely's SQLite driver prepares on every call, which costs more than a one-row query itself.
 * Queries run synchronously; the promise only keeps the {@link QueryRunner} shape.
 */
export class SqliteStatementRunner implements QueryRunner {
  readonly #database: SqliteDatabaseLike;
  readonly #statements = new Map<string, SqliteStatementLike>();
  /** Per cached reader statement: how its rows are read (checkpoint rows in raw mode, see {@link checkpointRowReader}). */
  readonly #readers = new Map<string, (parameters: ReadonlyArray<unknown>) => unknown[]>();

  constructor(database: SqliteDatabaseLike) {
    this.#database = database;
  }

  rows<R>(query: CompiledQuery<R>): Promise<R[]> {
    try {
      const reader = this.#readers.get(query.sql);
      if (reader) return Promise.resolve(reader(query.parameters) as R[]);
      if (INSERT_RETURNING_ID.test(query.sql)) return Promise.resolve(this.#insertReturningId(query) as R[]);
      const statement = this.#statement(query.sql);
      if (!statement.reader) {
        statement.run(query.parameters);
        return Promise.resolve([]);
      }
      return Promise.resolve(this.#reader(query.sql, statement)(query.parameters) as R[]);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Runs SQL text without parameters. */
  exec(sqlText: string): void {
    this.#database.exec(sqlText);
  }

  /**
   * Runs a single-row insert without its RETURNING clause. No change (ON CONFLICT DO NOTHING turned
   * the row away) gives no row, exactly as RETURNING would.
   */
  #insertReturningId(query: CompiledQuery): Array<{ id: number }> {
    const result = this.#statement(query.sql.slice(0, -' returning "id"'.length)).run(query.parameters);
    return Number(result.changes) === 0 ? [] : [{ id: Number(result.lastInsertRowid) }];
  }

  /** The reader of a reader statement, remembered with the statement it belongs to. */
  #reader(sqlText: string, statement: SqliteStatementLike): (parameters: ReadonlyArray<unknown>) => unknown[] {
    // Only a cached statement may switch to raw mode: an uncached one is prepared again next time.
    const cached = this.#statements.get(sqlText) === statement;
    const reader = (cached ? checkpointRowReader(statement) : undefined) ?? ((parameters: ReadonlyArray<unknown>) => statement.all(parameters));
    if (cached) this.#readers.set(sqlText, reader);
    return reader;
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
