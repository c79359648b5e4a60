import type { CheckpointQueries } from '../queries.js';
import { QueryTemplate } from '../query-template.js';
import { SQLITE_QUERY_PARTS } from './sqlite-queries.frozen.js';

let queries: CheckpointQueries | undefined;

/**
 * The adapter's hot queries for SQLite, built from their frozen text: what `compileQueries`
 * returns for a SQLite Kysely instance, without loading Kysely. Templates are immutable, so every
 * adapter shares one set.
 */
export function frozenSqliteQueries(): CheckpointQueries {
  queries ??= Object.fromEntries(
    Object.entries(SQLITE_QUERY_PARTS).map(([name, parts]) => [name, QueryTemplate.frozen(parts)]),
  ) as unknown as CheckpointQueries;
  return queries;
}
