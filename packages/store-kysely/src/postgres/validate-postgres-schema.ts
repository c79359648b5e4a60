import { StoreSchemaError } from '@session-checkpoint/core';
import { pythonListRepr } from '@session-checkpoint/core/internal';
import { sql, type Kysely } from 'kysely';
import { SCHEMA_VERSION, STORE_COLUMNS, STORE_TABLES } from '../schema.js';
import { checkPostgresObjects } from './check-postgres-objects.js';

/** What a PostgreSQL schema holds. */
export type PostgresStoreState = { readonly kind: 'empty' } | { readonly kind: 'store'; readonly version: number };

/**
 * Checks the store tables of one PostgreSQL schema with the SQLite file's rules, except that
 * other tables are allowed (a schema such as `public` is shared with the application; only the
 * Python tool's SQLite reader cares about extra tables).
 *
 * @throws StoreSchemaError when only one store table exists, a column set differs, or the
 *   recorded version is not one this package reads, or the tables carry triggers, rules,
 *   policies, views and other objects beyond the v1 schema (see {@link checkPostgresObjects}).
 */
export async function inspectPostgresSchema(db: Kysely<any>, schema: string, location: string): Promise<PostgresStoreState> {
  const tables = (
    await sql<{ name: string }>`select table_name as name from information_schema.tables
      where table_schema = ${schema} and table_name in (${sql.join([...STORE_TABLES])}) order by table_name`.execute(db)
  ).rows.map((r) => r.name);
  if (tables.length === 0) return { kind: 'empty' };
  if (tables.length !== STORE_TABLES.length) {
    throw new StoreSchemaError(`Refusing incompatible checkpoint store in ${location}; tables=${pythonListRepr(tables)}`);
  }
  for (const table of STORE_TABLES) {
    const actual = (
      await sql<{ name: string }>`select column_name as name from information_schema.columns
        where table_schema = ${schema} and table_name = ${table}`.execute(db)
    ).rows
      .map((r) => r.name)
      .sort();
    const expected = [...STORE_COLUMNS[table]].sort();
    if (actual.length !== expected.length || expected.some((c, i) => actual[i] !== c)) {
      throw new StoreSchemaError(
        `Incompatible ${table} columns in ${location}: expected=${pythonListRepr(expected)}, actual=${pythonListRepr(actual)}`,
      );
    }
  }
  const meta = (
    await db.withSchema(schema).selectFrom('checkpoint_meta').select('value').where('key', '=', 'schema_version').executeTakeFirst()
  )?.value as string | undefined;
  if (meta !== String(SCHEMA_VERSION)) {
    throw new StoreSchemaError(`Unsupported checkpoint store schema in ${location}: meta=${meta ?? 'None'}`);
  }
  await checkPostgresObjects(db, schema, location);
  return { kind: 'store', version: SCHEMA_VERSION };
}
