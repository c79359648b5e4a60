import { StoreNotFoundError, StoreSchemaError } from '@session-checkpoint/core';
import { pythonListRepr } from '@session-checkpoint/core/toolkit';
import type { Kysely } from 'kysely';
import { CREATE_CHECKPOINTS_TABLE, CREATE_META_TABLE, CREATE_NAMESPACE_INDEX, CREATE_SESSION_INDEX, LATEST_SCHEMA_VERSION } from '../migrations.js';
import { rawQuery } from '../raw-query.js';
import { NAMESPACE_INDEX, SCHEMA_VERSION, SESSION_INDEX, STORE_COLUMNS, STORE_TABLES } from '../schema.js';
import type { SqliteDatabaseLike } from './sqlite-options.js';

/*
 * What a SQLite store file must hold, checked with plain reads before anything is written: the
 * Python reference's open checks (tables, column names, schema version), then ours (every other
 * object in the file), and from the verdict whether the store must be created or migrated (which
 * sqlite-kysely.ts does, loading Kysely only then).
 */

/**
 * Reads rows with plain SQL text: what the file and schema checks need, and no more. On the SQLite
 * front door it is the better-sqlite3 handle itself, so opening a current store never loads
 * Kysely; elsewhere it is a Kysely instance, connection or transaction.
 */
export interface SqlReader {
  /** Runs one statement with positional `?` parameters and returns its rows. */
  rows<R>(sql: string, parameters?: readonly unknown[]): Promise<R[]>;
}

/** A reader over a better-sqlite3 connection. */
export function sqliteReader(database: SqliteDatabaseLike): SqlReader {
  return {
    rows: async <R>(sql: string, parameters: readonly unknown[] = []) => database.prepare(sql).all(parameters) as R[],
  };
}

/** A reader over a Kysely instance, connection or transaction (its executor, dialect and plugins). */
export function kyselyReader(db: Kysely<any>): SqlReader {
  return {
    rows: async <R>(sql: string, parameters: readonly unknown[] = []) => [...(await db.executeQuery(rawQuery<R>(sql, parameters))).rows],
  };
}

/** What a compatible SQLite file holds. */
export type SqliteStoreState =
  /** No tables yet: a new (or empty) file, to be created. */
  | { readonly kind: 'empty' }
  /** A v1 store; `hasSessionIndex` is false for stores the Python tool created. */
  | { readonly kind: 'store'; readonly version: number; readonly hasSessionIndex: boolean };

/** SQLite result codes meaning "this file is not a database we can read". */
const NOT_A_DATABASE = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);

/**
 * Checks a SQLite file with plain reads (through `reader`: the better-sqlite3 handle when opening,
 * so a current store opens without Kysely), exactly as the Python reference does on open, and
 * reports what it holds. Reads never change the file, so an incompatible file is left byte- and
 * mode-identical. Checks, first failure wins:
 * 1. the tables (other than `sqlite_*`) are none, or exactly `checkpoint_meta` and `checkpoints`;
 * 2. both tables have exactly the v1 column names (types and constraints are not checked);
 * 3. `checkpoint_meta['schema_version']` is `'1'` and `PRAGMA user_version` is `1`;
 * 4. (ours, beyond the reference) every other object is part of the v1 schema, see
 *    {@link checkSqliteObjects}: no triggers, views, UNIQUE/partial/expression indexes, and the
 *    CREATE text of the tables and our indexes is the reference's.
 * A file counts as empty (a store may be created in it) only when it holds no object at all and
 * `user_version` is 0: a file holding only a view, say, is someone else's and is refused.
 *
 * @param location Path shown in messages.
 * @throws StoreSchemaError with the reference's message when a check fails, or when the file is
 *   not a SQLite database at all.
 */
export async function inspectSqliteFile(reader: SqlReader, location: string): Promise<SqliteStoreState> {
  try {
    return await inspect(reader, location);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_A_DATABASE.has(code)) {
      throw new StoreSchemaError(`Refusing incompatible SQLite file ${location}: file is not a database`, { cause: error });
    }
    throw error;
  }
}

async function inspect(reader: SqlReader, location: string): Promise<SqliteStoreState> {
  // `LIKE 'sqlite_%'` as the reference writes it (`_` is a wildcard there too), for identical verdicts.
  const tables = (
    await reader.rows<{ name: string }>("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
  ).map((r) => String(r.name));
  const objects = await reader.rows<SqliteObject>('select type, name, tbl_name, sql from sqlite_master order by type, name');
  if (tables.length === 0) {
    const userVersion = Number((await reader.rows<{ user_version: unknown }>('pragma user_version'))[0]?.user_version);
    if (objects.length === 0 && userVersion === 0) return { kind: 'empty' };
    const held = objects.map((o) => `${o.type} '${o.name}'`).join(', ') || `user_version ${userVersion}`;
    throw new StoreSchemaError(`Refusing incompatible SQLite file ${location}: not a checkpoint store and not empty (holds ${held})`);
  }
  if (tables.length !== STORE_TABLES.length || STORE_TABLES.some((t, i) => tables[i] !== t)) {
    throw new StoreSchemaError(`Refusing incompatible SQLite file ${location}; tables=${pythonListRepr(tables)}`);
  }
  for (const table of STORE_TABLES) {
    const actual = (await reader.rows<{ name: string }>('select name from pragma_table_info(?)', [table]))
      .map((r) => String(r.name))
      .sort();
    const expected = [...STORE_COLUMNS[table]].sort();
    if (actual.length !== expected.length || expected.some((c, i) => actual[i] !== c)) {
      throw new StoreSchemaError(
        `Incompatible ${table} columns in ${location}: expected=${pythonListRepr(expected)}, actual=${pythonListRepr(actual)}`,
      );
    }
  }
  const meta = (await reader.rows<{ value: unknown }>("select value from checkpoint_meta where key = 'schema_version'"))[0]?.value;
  const userVersion = Number((await reader.rows<{ user_version: unknown }>('pragma user_version'))[0]?.user_version);
  if (meta !== String(SCHEMA_VERSION) || userVersion !== SCHEMA_VERSION) {
    const shown = meta === undefined || meta === null ? 'None' : String(meta);
    throw new StoreSchemaError(`Unsupported checkpoint store schema in ${location}: meta=${shown}, user_version=${userVersion}`);
  }
  await checkSqliteObjects(reader, objects, location);
  return { kind: 'store', version: SCHEMA_VERSION, hasSessionIndex: objects.some((o) => o.type === 'index' && o.name === SESSION_INDEX) };
}

/*
 * The Python reference checks table and column names only, so a file can hold a trigger that
 * deletes every new row, a view, or a UNIQUE index that turns a good create into a reported
 * "conflict", and still open. We check every object in sqlite_master instead: what may be there
 * is exactly the v1 schema (whose CREATE text must match the reference's, whitespace aside),
 * SQLite's own bookkeeping, and extra indexes that cannot change what a statement does.
 */

/** One row of `sqlite_master`. */
interface SqliteObject {
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
function normaliseDdl(text: string): string {
  return text.replace(/\s+/gu, ' ').replace(/^CREATE (TABLE|INDEX) IF NOT EXISTS /iu, 'CREATE $1 ').trim();
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
async function checkSqliteObjects(reader: SqlReader, objects: readonly SqliteObject[], location: string): Promise<void> {
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

/**
 * Whether a store inspected by {@link inspectSqliteFile} must be created or migrated: false for a
 * current store, and for any store on a read-only connection (only v1 exists, so a store that
 * passed inspection reads as it is; the session index is an optimisation).
 *
 * @throws StoreNotFoundError when the file holds no store and `create` is false.
 */
export function sqliteStoreNeedsWrite(seen: SqliteStoreState, location: string, create: boolean, readOnly: boolean): boolean {
  if (seen.kind === 'store' && seen.version >= LATEST_SCHEMA_VERSION && seen.hasSessionIndex) return false;
  refuseMissing(seen, location, create);
  return !(readOnly && seen.kind === 'store');
}

/** @throws StoreNotFoundError when the file holds no store and `create` is false. */
export function refuseMissing(state: SqliteStoreState, location: string, create: boolean): void {
  if (state.kind === 'empty' && !create) {
    throw new StoreNotFoundError(`Checkpoint store not found: ${location} holds no store (open it with create to initialise it)`);
  }
}
