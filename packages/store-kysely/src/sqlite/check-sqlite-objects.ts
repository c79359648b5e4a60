import { StoreSchemaError } from '@session-checkpoint/core';
import type { SqlReader } from '../sql-reader.js';
import { NAMESPACE_INDEX, SESSION_INDEX, STORE_TABLES } from '../schema.js';
import { CREATE_CHECKPOINTS_TABLE, CREATE_META_TABLE, CREATE_NAMESPACE_INDEX, CREATE_SESSION_INDEX } from './sqlite-ddl.js';

/*
 * The Python reference checks table and column names only, so a file can hold a trigger that
 * deletes every new row, a view, or a UNIQUE index that turns a good create into a reported
 * "conflict", and still open. We check every object in sqlite_master instead: what may be there
 * is exactly the v1 schema (whose CREATE text must match the reference's, whitespace aside),
 * SQLite's own bookkeeping, and extra indexes that cannot change what a statement does.
 */

/** One row of `sqlite_master`. */
export interface SqliteObject {
  readonly type: string;
  readonly name: string;
  readonly tbl_name: string;
  readonly sql: string | null;
}

/** CREATE text of each object of the v1 schema, by name. */
const EXPECTED_SQL: Readonly<Record<string, string>> = {
  checkpoint_meta: CREATE_META_TABLE,
  checkpoints: CREATE_CHECKPOINTS_TABLE,
  [NAMESPACE_INDEX]: CREATE_NAMESPACE_INDEX,
  [SESSION_INDEX]: CREATE_SESSION_INDEX,
};

/** SQLite's own tables: the AUTOINCREMENT counter and ANALYZE statistics. */
const INTERNAL_TABLE = /^sqlite_(?:sequence|stat[1-4])$/u;

/** Collations built into SQLite: an index using one cannot fail for a missing collation. */
const BUILT_IN_COLLATIONS = new Set(['BINARY', 'NOCASE', 'RTRIM']);

/** CREATE text as compared: runs of whitespace as one space; SQLite stores `IF NOT EXISTS` stripped. */
export function normaliseDdl(text: string): string {
  return text.replace(/\s+/gu, ' ').replace(/^CREATE (TABLE|INDEX) IF NOT EXISTS /iu, 'CREATE $1 ').trim();
}

/**
 * Every object of the file, as `sqlite_master` lists it.
 */
export async function listSqliteObjects(reader: SqlReader): Promise<SqliteObject[]> {
  return reader.rows<SqliteObject>('select type, name, tbl_name, sql from sqlite_master order by type, name');
}

/**
 * Refuses any object that is not part of the v1 schema, in a file whose tables already passed
 * the reference's checks.
 *
 * Allowed: the two tables and our two indexes with their exact CREATE text; SQLite's automatic
 * indexes on them and its `sqlite_sequence` / `sqlite_stat*` tables; and a foreign index on a
 * store table that is plain: not UNIQUE (it would refuse good rows), not partial and on columns
 * only, with built-in collations (an expression, a WHERE clause or a custom collation can make a
 * write fail). Refused: views, triggers, any other table or index.
 *
 * @throws StoreSchemaError naming the first offending object.
 */
export async function checkSqliteObjects(reader: SqlReader, objects: readonly SqliteObject[], location: string): Promise<void> {
  for (const object of objects) {
    const problem = await objectProblem(reader, object);
    if (problem !== undefined) {
      throw new StoreSchemaError(`Refusing incompatible SQLite file ${location}: ${object.type} '${object.name}' ${problem}`);
    }
  }
}

async function objectProblem(reader: SqlReader, object: SqliteObject): Promise<string | undefined> {
  const expected = EXPECTED_SQL[object.name];
  if (expected !== undefined) {
    const wantedType = (STORE_TABLES as readonly string[]).includes(object.name) ? 'table' : 'index';
    if (object.type !== wantedType || object.sql === null || normaliseDdl(object.sql) !== normaliseDdl(expected)) {
      return 'differs from the v1 schema';
    }
    return undefined;
  }
  const onStoreTable = (STORE_TABLES as readonly string[]).includes(object.tbl_name);
  switch (object.type) {
    case 'table':
      return INTERNAL_TABLE.test(object.name) ? undefined : 'is not part of the v1 schema';
    case 'index':
      if (!onStoreTable) return 'is not part of the v1 schema';
      if (object.sql === null) return /^sqlite_autoindex_/u.test(object.name) ? undefined : 'is not part of the v1 schema';
      return foreignIndexProblem(reader, object);
    default:
      // views and triggers: a trigger can rewrite or delete rows behind a successful create.
      return 'is not part of the v1 schema (views and triggers are refused)';
  }
}

async function foreignIndexProblem(reader: SqlReader, index: SqliteObject): Promise<string | undefined> {
  const listed = (
    await reader.rows<{ name: string; unique: number; partial: number }>('select name, "unique", partial from pragma_index_list(?)', [index.tbl_name])
  ).find((row) => row.name === index.name);
  if (listed === undefined) return 'is not part of the v1 schema';
  if (Number(listed.unique) !== 0) return 'is UNIQUE: it could refuse valid checkpoints (only plain extra indexes are accepted)';
  if (Number(listed.partial) !== 0) return 'is partial: only plain extra indexes are accepted';
  const keys = await reader.rows<{ cid: number; coll: string | null }>('select cid, coll from pragma_index_xinfo(?) where key = 1', [index.name]);
  if (keys.some((key) => Number(key.cid) < 0)) return 'indexes an expression: only plain extra indexes are accepted';
  if (keys.some((key) => !BUILT_IN_COLLATIONS.has(String(key.coll).toUpperCase()))) return 'uses a collation SQLite does not define';
  return undefined;
}
