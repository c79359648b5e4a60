import type { CompiledQuery, RootOperationNode } from 'kysely';

/** Numbers the query ids of raw queries; Kysely's plugins only need each id to be its own object. */
let nextQueryId = 0;

/**
 * A compiled query for SQL text, shaped exactly as Kysely's `CompiledQuery.raw` builds one (a
 * `RawNode` holding the text), but without loading Kysely: the SQLite read path runs without it,
 * and a Kysely instance someone else created executes it all the same.
 *
 * @example
 * ```ts
 * await runner.rows(rawQuery('select name from pragma_table_info(?)', ['checkpoints']));
 * ```
 */
export function rawQuery<R = unknown>(sql: string, parameters: readonly unknown[] = []): CompiledQuery<R> {
  const query = Object.freeze({ kind: 'RawNode', sqlFragments: Object.freeze([sql]), parameters: Object.freeze([]) }) as unknown as RootOperationNode;
  return Object.freeze({ sql, query, parameters: Object.freeze([...parameters]), queryId: Object.freeze({ queryId: `raw-${++nextQueryId}` }) });
}
