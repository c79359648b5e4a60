import type { CheckpointRow } from '@session-checkpoint/core';
import type { CompiledQuery } from 'kysely';
import type { AdapterConnection, QueryRunner } from '../adapter-connection.js';
import type { SqliteDatabaseLike, SqliteStatementLike } from './sqlite-options.js';

/*
 * How the SQLite front door's adapter reaches its one better-sqlite3 connection: root-level work
 * queued so nothing runs inside another caller's open transaction, write transactions under
 * `BEGIN IMMEDIATE`, each SQL text prepared once, and checkpoint rows read as raw arrays.
 */

/** The statements of a SQLite write transaction. */
export type TransactionStatement = 'BEGIN IMMEDIATE' | 'COMMIT' | 'ROLLBACK';

/**
 * Runs `fn` between `BEGIN IMMEDIATE` and `COMMIT` on one connection, and rolls back when `fn` or
 * the commit throws. `BEGIN IMMEDIATE` takes the write lock (waiting up to `busy_timeout`) up
 * front, instead of failing with `SQLITE_BUSY` when a read would later upgrade. `exec` runs one
 * statement: better-sqlite3's `database.exec`, or a Kysely connection's `sql.raw(...).execute`.
 *
 * @example
 * ```ts
 * await immediateTransaction((statement) => database.exec(statement), () => insertBoth());
 * ```
 */
export async function immediateTransaction<T>(exec: (statement: TransactionStatement) => unknown, fn: () => Promise<T>): Promise<T> {
  await exec('BEGIN IMMEDIATE');
  try {
    const result = await fn();
    await exec('COMMIT');
    return result;
  } catch (error) {
    // A failed COMMIT (busy) leaves the transaction open; some errors have already rolled it
    // back, and then ROLLBACK fails. Either way the error to report is the first one.
    try {
      await exec('ROLLBACK');
    } catch {
      // already rolled back
    }
    throw error;
  }
}

/**
 * Runs tasks one at a time, in call order. A SQLite connection is one session: while a
 * transaction is open on it, any other statement sent on it would join that transaction, so every
 * root-level operation of a single-connection adapter waits its turn here.
 */
export class ExclusiveQueue {
  #tail: Promise<unknown> = Promise.resolve();
  /** Tasks submitted and not yet settled. */
  #pending = 0;
  /** Counts a task settled: one function for every task and both outcomes, not two closures per task. */
  readonly #settled = (): void => {
    this.#pending--;
  };

  /** Runs `task` after every task queued before it has settled. */
  run<T>(task: () => T | Promise<T>): Promise<T> {
    let result: Promise<T>;
    if (this.#pending === 0) {
      // Nothing ahead of it: start now rather than a microtask later. Single reads are the common
      // case and each queue hop is a measurable part of a 25 µs get.
      try {
        result = Promise.resolve(task());
      } catch (error) {
        result = Promise.reject(error);
      }
    } else {
      result = this.#tail.then(task);
    }
    this.#pending++;
    this.#tail = result.then(this.#settled, this.#settled);
    return result;
  }
}

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

/** Prepared statements kept per connection; the adapter's templates need about fifteen. */
const MAX_CACHED_STATEMENTS = 64;

/**
 * `INSERT ... RETURNING "id"` of a single row. SQLite materialises RETURNING rows through a
 * temporary table; the same INSERT without it, answered from `lastInsertRowid`, is cheaper (1-2 us
 * of CPU per create in an isolated better-sqlite3 test; docs/benchmarks.md). Only the exact
 * `returning "id"` suffix qualifies, so every other statement runs as written.
 */
const INSERT_RETURNING_ID = /^insert into (?![^;]*\), \()[^;]* returning "id"$/;

/** How one SQL text runs: its prepared statement, called the way its kind needs. */
type Plan = (parameters: ReadonlyArray<unknown>) => unknown[];

/**
 * Runs compiled queries straight on a better-sqlite3 connection, preparing each SQL text once.
 * Kysely's SQLite driver prepares on every call, which costs more than a one-row query itself.
 * Queries run synchronously; the promise only keeps the {@link QueryRunner} shape.
 */
export class SqliteStatementRunner implements QueryRunner {
  readonly #database: SqliteDatabaseLike;
  readonly #statements = new Map<string, SqliteStatementLike>();
  /**
   * Per SQL text whose statement is cached: how it runs (a single-row insert without its
   * RETURNING, a checkpoint-row reader in raw mode, a write, a reader). Deciding that takes a
   * regular expression over the text and, for an insert, a slice whose lookup hashes the whole
   * text again: a few µs per conditional insert, whose text is about 1 KB.
   */
  readonly #plans = new Map<string, Plan>();

  constructor(database: SqliteDatabaseLike) {
    this.#database = database;
  }

  rows<R>(query: CompiledQuery<R>): Promise<R[]> {
    try {
      const plan = this.#plans.get(query.sql) ?? this.#plan(query.sql);
      return Promise.resolve(plan(query.parameters) as R[]);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Runs SQL text without parameters. */
  exec(sqlText: string): void {
    this.#database.exec(sqlText);
  }

  /** How `sqlText` runs, kept when its statement is kept (an uncached one is prepared again next time). */
  #plan(sqlText: string): Plan {
    const returningId = INSERT_RETURNING_ID.test(sqlText);
    const prepared = returningId ? sqlText.slice(0, -' returning "id"'.length) : sqlText;
    const statement = this.#statement(prepared);
    const cached = this.#statements.get(prepared) === statement;
    let plan: Plan;
    if (returningId) plan = insertReturningId(statement);
    else if (!statement.reader) plan = write(statement);
    // Only a cached statement may switch to raw mode: an uncached one is prepared again next time.
    else plan = (cached ? checkpointRowReader(statement) : undefined) ?? ((parameters) => statement.all(parameters));
    if (cached) this.#plans.set(sqlText, plan);
    return plan;
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

/**
 * A single-row insert run without its RETURNING clause. No change (ON CONFLICT DO NOTHING turned
 * the row away) gives no row, exactly as RETURNING would.
 */
function insertReturningId(statement: SqliteStatementLike): Plan {
  return (parameters) => {
    const result = statement.run(parameters);
    return Number(result.changes) === 0 ? [] : [{ id: Number(result.lastInsertRowid) }];
  };
}

/** A statement that returns no rows. */
function write(statement: SqliteStatementLike): Plan {
  return (parameters) => {
    statement.run(parameters);
    return [];
  };
}

/*
 * better-sqlite3 builds each result row as an object from C++, one property at a time: for the
 * nine columns of a checkpoint row that is about a third of a 20-row range read (67 against 46 us
 * of CPU with raw arrays and the object literal below; Node 20, better-sqlite3 12). A row built
 * by one JavaScript literal gets V8's fast object creation and the same keys in the same order,
 * so the adapter and the facade see exactly the rows they saw before.
 */

/** The statement surface used here; better-sqlite3's `Statement` has it. */
export interface RawCapableStatement {
  /** Switches the statement to arrays of column values. */
  raw?(toggle?: boolean): unknown;
  /** The result columns, by their names in the SQL (aliases included). */
  columns?(): ReadonlyArray<{ readonly name: string }>;
  all(parameters: ReadonlyArray<unknown>): unknown[];
}

/** The columns of every checkpoint-row query of the adapter, in its select order. */
const ROW_COLUMNS = ['id', 'namespace', 'sessionId', 'kind', 'name', 'payloadJson', 'payloadSha256', 'createdAt', 'sourceRef'] as const;

type RawRow = [number, string, string, string, string, string, string, string, string | null];

function rowOf(r: RawRow): CheckpointRow {
  return { id: r[0], namespace: r[1], sessionId: r[2], kind: r[3], name: r[4], payloadJson: r[5], payloadSha256: r[6], createdAt: r[7], sourceRef: r[8] };
}

/**
 * A reader for `statement` when it selects exactly the checkpoint row columns: it switches the
 * statement to raw mode (so call this once, on a statement nobody else runs) and maps each array
 * to a row. `undefined` for any other statement, or one without `raw`/`columns`; those run as
 * they are.
 *
 * @example
 * ```ts
 * const read = checkpointRowReader(db.prepare(sql)) ?? ((p) => statement.all(p));
 * ```
 */
export function checkpointRowReader(statement: RawCapableStatement): ((parameters: ReadonlyArray<unknown>) => CheckpointRow[]) | undefined {
  if (typeof statement.raw !== 'function' || typeof statement.columns !== 'function') return undefined;
  const names = statement.columns().map((column) => column.name);
  if (names.length !== ROW_COLUMNS.length || names.some((name, i) => name !== ROW_COLUMNS[i])) return undefined;
  statement.raw(true);
  return (parameters) => {
    const rows = statement.all(parameters) as RawRow[];
    const out = new Array<CheckpointRow>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = rowOf(rows[i] as RawRow);
    return out;
  };
}
