import { createHash } from 'node:crypto';
import type { PostgresPoolClient } from 'kysely';

/*
 * PostgreSQL parses, analyses and plans an unnamed statement at every execution. The store's
 * statements are templates compiled once (query-template.ts), so each SQL text is fixed; giving
 * it a name makes pg send Parse once per connection and only Bind and Execute afterwards, and the
 * server keeps the parsed statement (and its plan cache) for the connection's life. For the
 * one-statement insert of a LangGraph put (an INSERT ... SELECT with a NOT EXISTS and the id
 * guard) that halved the server's CPU for the statement alone, and took 34-39% off a put's with
 * its commit (docs/decisions/0015-postgresql-named-statements-opt-in.md).
 *
 * Only data statements are named (select, insert, update, delete, with): BEGIN, COMMIT and DDL
 * gain nothing. At most MAX_NAMED distinct texts per process get a name (a statement with a
 * variable number of parameters, as an IN list, has one text per count); the rest run unnamed as
 * before. A name is `sc_` and the SHA-1 of the text: pg refuses one name for two texts on a
 * connection, so a name must follow from its text alone, also when two copies of this package
 * share a pool.
 */

/** Distinct SQL texts named per process; beyond it, statements run unnamed. */
const MAX_NAMED = 512;

const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/iu;

const names = new Map<string, string>();
const wrappers = new WeakMap<object, PostgresPoolClient>();

/** The statement name of `text`, or `undefined` when it runs unnamed. */
export function statementName(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined || names.size >= MAX_NAMED || !DATA_STATEMENT.test(text)) return known;
  const name = `sc_${createHash('sha1').update(text).digest('hex')}`;
  names.set(text, name);
  return name;
}

/**
 * The store's view of a checked-out client: `query(text, values)` runs a named (prepared)
 * statement for data statements; every other call form, and `release`, go to `client` as they
 * are. The client itself is left alone, so a caller's own queries on a pool it lent the store are
 * never named. One view per client, so Kysely keeps one connection object per client.
 *
 * @example
 * ```ts
 * const client = namingStatements(await pool.connect());
 * await client.query('select 1 where $1::int = 1', [1]); // parsed on this connection once
 * ```
 */
export function namingStatements(client: PostgresPoolClient): PostgresPoolClient {
  const known = wrappers.get(client);
  if (known !== undefined) return known;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const view = {
    query: (...args: unknown[]) => {
      const [text, values, ...rest] = args;
      const name = typeof text === 'string' && Array.isArray(values) && rest.length === 0 ? statementName(text) : undefined;
      return name === undefined ? query(...args) : query({ name, text, values });
    },
    release: (...args: unknown[]) => (client.release as (...a: unknown[]) => void)(...args),
  } as unknown as PostgresPoolClient;
  wrappers.set(client, view);
  return view;
}
