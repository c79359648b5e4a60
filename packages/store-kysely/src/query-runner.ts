import type { CompiledQuery, Kysely } from 'kysely';

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
