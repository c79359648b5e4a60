import type { Kysely } from 'kysely';
import { StoreSchemaError } from '@session-checkpoint/core';

/**
 * The SQL dialects the adapter knows. They differ in locking (SQLite serialises writers with
 * `BEGIN IMMEDIATE`, PostgreSQL needs advisory locks), id sequences and DDL.
 */
export type SqlFlavor = 'sqlite' | 'postgres';

/**
 * The flavour of a Kysely instance, from the SQL its dialect compiles: double-quoted identifiers
 * with `?` placeholders are SQLite's compiler, with `$1` PostgreSQL's (dialects built on those
 * compilers, such as libSQL or PGlite, count as theirs). Asking the compiler rather than testing
 * the dialect's adapter class with `instanceof` keeps Kysely itself unloaded in this module, and
 * the compiled text is what the adapter's queries depend on.
 *
 * @throws StoreSchemaError for dialects other than SQLite and PostgreSQL.
 */
export function detectFlavor(db: Kysely<any>): SqlFlavor {
  const probe = db.selectFrom('checkpoint_meta').select('key').where('key', '=', '').compile().sql;
  if (/"key" = \?$/u.test(probe)) return 'sqlite';
  if (/"key" = \$1$/u.test(probe)) return 'postgres';
  const adapter = db.getExecutor().adapter;
  throw new StoreSchemaError(`Unsupported Kysely dialect ${adapter.constructor.name}: use SQLite or PostgreSQL, or pass the flavor option`);
}
