import { StoreSchemaError } from '@session-checkpoint/core';
import { pythonListRepr } from '@session-checkpoint/core/internal';
import type { SqlReader } from '../sql-reader.js';
import { SCHEMA_VERSION, SESSION_INDEX, STORE_COLUMNS, STORE_TABLES } from '../schema.js';
import { checkSqliteObjects, listSqliteObjects } from './check-sqlite-objects.js';

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
  const objects = await listSqliteObjects(reader);
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
