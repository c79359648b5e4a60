import { CheckpointError } from '@session-checkpoint/core';
import { AbortedTransactionError, type CompiledQuery, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type { AdapterConnection, QueryRunner } from '../adapter-connection.js';
import { queryDirect, type PgAnswer } from './postgres-pool.js';

/*
 * The PostgreSQL front door's path to the server: the store's compiled statements go straight to
 * pg (`pool.connect()`, `client.query(text, values)`, `client.release()`), not through Kysely's
 * executor. Kysely still builds and compiles the statements; the front door's Kysely instance has
 * no plugins, so its executor only passed each compiled statement on. What that cost, measured
 * with tools/bench/scripts/pg-statement-cost.mjs (docs/decisions/0038-postgresql-statement-cost.md):
 * per transaction a new Kysely `Transaction` instance, its executor and connection provider, and a
 * promise chain per statement through them, about a quarter of this process's CPU for a one-insert
 * transaction. A caller's own Kysely instance (`new KyselyAdapter(db)`) keeps the executor, so its
 * plugins and dialect still apply (KyselyConnection in adapter-connection.ts).
 *
 * On the pool the store opens itself (a pg Pool), statements go by pg's callback form of
 * `client.query(text, values, callback)`, past the guard's wrapper (queryDirect in
 * postgres-pool.ts, which says why: the promise form had each read's rows copied into the old
 * generation; docs/decisions/0043-postgresql-reads-without-promoted-garbage.md). A pool the caller
 * lends keeps the promise form.
 *
 * Behaviour kept from Kysely's PostgreSQL transaction: BEGIN and COMMIT on one checked-out client;
 * a COMMIT that PostgreSQL completes as ROLLBACK (an earlier statement failed and the error was
 * swallowed) throws Kysely's AbortedTransactionError instead of reporting success; a failed body is
 * rolled back, and a client whose ROLLBACK fails is discarded (`release(true)`) rather than handed
 * out again in an unknown state.
 */

/**
 * Runs one statement on a client: by pg's callback form on a client of the store's own pool
 * (see the note above and postgres-pool.ts), by the promise `query` returns otherwise.
 */
function send<R>(client: PostgresPoolClient, text: string, values: readonly unknown[]): Promise<PgAnswer<R>> {
  return queryDirect<R>(client, text, values) ?? client.query<R>(text, values);
}

/**
 * As pg's promise form does, a failed statement's error gets the stack of the code that awaited
 * it (on the callback path its stack is the socket's). Only on failure.
 */
function withCallerStack(error: unknown): unknown {
  if (error instanceof Error) Error.captureStackTrace(error);
  return error;
}

/**
 * Runs statements on one checked-out client (a transaction's) until the transaction ends. A
 * statement after that is refused, as Kysely's transaction executor refuses it: the client has gone
 * back to the pool, so the statement would run in autocommit, or inside whichever transaction the
 * pool hands the client to next and be rolled back with it (a leaked or un-awaited `tx`).
 */
class ClientRunner implements QueryRunner {
  readonly #client: PostgresPoolClient;
  #ended = false;

  constructor(client: PostgresPoolClient) {
    this.#client = client;
  }

  /** No statement runs on this runner from now on. */
  end(): void {
    this.#ended = true;
  }

  async rows<R>(query: CompiledQuery<R>): Promise<R[]> {
    if (this.#ended) throw new CheckpointError('the transaction has ended: a statement of it ran after its commit or rollback');
    try {
      return (await send<R>(this.#client, query.sql, query.parameters)).rows;
    } catch (error) {
      throw withCallerStack(error);
    }
  }
}

/** Runs each statement on a client checked out for it alone (autocommit). */
class PoolRunner implements QueryRunner {
  readonly #pool: PostgresPool;

  constructor(pool: PostgresPool) {
    this.#pool = pool;
  }

  async rows<R>(query: CompiledQuery<R>): Promise<R[]> {
    const client = await this.#pool.connect();
    try {
      return (await send<R>(client, query.sql, query.parameters)).rows;
    } catch (error) {
      throw withCallerStack(error);
    } finally {
      // pg's pool drops a client whose connection failed by itself; a healthy one goes back.
      client.release();
    }
  }
}

/**
 * The front door's {@link AdapterConnection} over the store's pool (see the note above).
 * `close` releases what the front door opened (its Kysely instance, which ends the pool).
 *
 * @example
 * ```ts
 * const adapter = new KyselyAdapter(db, { flavor: 'postgres', schema, connection: new PgConnection(pool, () => db.destroy()) });
 * ```
 */
export class PgConnection implements AdapterConnection {
  readonly runner: QueryRunner;
  readonly #pool: PostgresPool;
  readonly #close: () => Promise<void>;

  constructor(pool: PostgresPool, close: () => Promise<void>) {
    this.#pool = pool;
    this.#close = close;
    this.runner = new PoolRunner(pool);
  }

  async transaction<T>(fn: (runner: QueryRunner) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    const runner = new ClientRunner(client);
    let discard = false;
    try {
      await this.#statement(client, 'begin');
      let result: T;
      try {
        result = await fn(runner);
      } catch (error) {
        try {
          await this.#statement(client, 'rollback');
        } catch {
          discard = true;
        }
        throw error;
      }
      const { command } = await this.#statement(client, 'commit');
      // PostgreSQL completes COMMIT with a ROLLBACK tag when an earlier statement left the
      // transaction aborted (its error swallowed by the caller): nothing was committed.
      if (command === 'ROLLBACK') throw new AbortedTransactionError();
      return result;
    } finally {
      runner.end();
      client.release(discard);
    }
  }

  /** BEGIN, COMMIT or ROLLBACK on the transaction's client. */
  async #statement(client: PostgresPoolClient, text: string): Promise<PgAnswer<unknown>> {
    try {
      return await send(client, text, []);
    } catch (error) {
      throw withCallerStack(error);
    }
  }

  close(): Promise<void> {
    return this.#close();
  }
}
