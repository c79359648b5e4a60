import { StoreNotFoundError, StoreSchemaError } from '@session-checkpoint/core';
import { pythonListRepr } from '@session-checkpoint/core/toolkit';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { applyMigrations, LATEST_SCHEMA_VERSION, type MigrationReport } from '../migrations.js';
import { SCHEMA_VERSION, STORE_COLUMNS, STORE_TABLES } from '../schema.js';

/*
 * The store in a PostgreSQL schema: validated with the SQLite file's rules (and more, below) and
 * created or migrated under an advisory lock. Loaded on demand: it loads Kysely.
 */

/**
 * Validates the store in a PostgreSQL schema and brings it to the latest version, creating the
 * schema and tables when missing, in one transaction under an advisory lock keyed on the schema:
 * concurrent openers (many workers starting at once) serialise, and exactly one creates.
 *
 * @throws StoreSchemaError for incompatible tables; StoreNotFoundError when `create` is false and
 *   there is no store.
 */
export async function ensurePostgresSchema(db: Kysely<any>, schema: string, create: boolean): Promise<MigrationReport> {
  const location = `PostgreSQL schema ${JSON.stringify(schema)}`;
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`session-checkpoint:migrate:${schema}`}, 0))`.execute(trx);
    const exists = await sql`select 1 as present from pg_namespace where nspname = ${schema}`.execute(trx);
    if (exists.rows.length === 0) {
      if (!create) throw new StoreNotFoundError(`Checkpoint store not found: ${location} does not exist`);
      await sql`create schema ${sql.id(schema)}`.execute(trx);
    }
    const state = await inspectPostgresSchema(trx, schema, location);
    if (state.kind === 'empty' && !create) throw new StoreNotFoundError(`Checkpoint store not found: ${location} holds no store`);
    const from = state.kind === 'empty' ? 0 : state.version;
    const to = from >= LATEST_SCHEMA_VERSION ? from : await applyMigrations(trx, { flavor: 'postgres', schema }, from);
    return { created: state.kind === 'empty', from, to };
  });
}

/** What a PostgreSQL schema holds. */
type PostgresStoreState = { readonly kind: 'empty' } | { readonly kind: 'store'; readonly version: number };

/**
 * Checks the store tables of one PostgreSQL schema with the SQLite file's rules, except that
 * other tables are allowed (a schema such as `public` is shared with the application; only the
 * Python tool's SQLite reader cares about extra tables).
 *
 * @throws StoreSchemaError when only one store table exists, a column set differs, or the
 *   recorded version is not one this package reads, or the tables carry triggers, rules,
 *   policies, views and other objects beyond the v1 schema (see {@link checkPostgresObjects}).
 */
async function inspectPostgresSchema(db: Kysely<any>, schema: string, location: string): Promise<PostgresStoreState> {
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

/*
 * Column names alone do not make a store. A trigger can delete each new row behind a successful
 * create, a rule can turn an INSERT into nothing, a row-level security policy can hide rows, a
 * child table (inheritance) adds rows to every read, a UNIQUE index refuses good rows, a jsonb
 * column rewrites the payload text that was hashed, a case-insensitive collation mixes namespaces,
 * an unlogged table loses acknowledged rows in a crash. None of that is the v1 schema, so the store
 * is refused on open, for every command, as the SQLite file is. The schema may hold other tables
 * and views of the application (it is often `public`); only what touches the store tables counts.
 */

/** Constraints of the v1 tables: name -> type and definition. NOT NULL constraints (PostgreSQL 18) are allowed too. */
const EXPECTED_CONSTRAINTS: Readonly<Record<string, string>> = {
  checkpoint_meta_pkey: 'PRIMARY KEY (key)',
  checkpoints_pkey: 'PRIMARY KEY (id)',
  checkpoints_namespace_source_ref_key: 'UNIQUE (namespace, source_ref)',
};

/** Column types of the v1 tables: `id` is bigint, every other column text. */
function expectedType(column: string): string {
  return column === 'id' ? 'bigint' : 'text';
}

/** One finding: what is wrong, for the message. */
type Finding = string;

/**
 * Refuses a PostgreSQL store whose tables carry anything beyond the v1 schema: triggers, rules,
 * row-level security or policies, views reading them, inheritance or partitioning, constraints
 * other than the v1 ones, other column types, domains or collations, unlogged tables, and extra indexes that are UNIQUE, partial or on
 * expressions (plain extra indexes are accepted: they cannot change what a statement does).
 *
 * @throws StoreSchemaError naming the first finding.
 */
async function checkPostgresObjects(db: Kysely<any>, schema: string, location: string): Promise<void> {
  for (const table of STORE_TABLES) {
    const finding = (await findings(db, schema, table))[0];
    if (finding !== undefined) throw new StoreSchemaError(`Refusing incompatible checkpoint store in ${location}: ${table} ${finding}`);
  }
}

async function findings(db: Kysely<any>, schema: string, table: string): Promise<Finding[]> {
  const found: Finding[] = [];
  const rel = (
    await sql<{ oid: number; relkind: string; persistence: string; rls: boolean }>`select c.oid, c.relkind, c.relpersistence as persistence,
        (c.relrowsecurity or c.relforcerowsecurity) as rls
      from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${schema} and c.relname = ${table}`.execute(db)
  ).rows[0];
  if (rel === undefined) return ['is missing'];
  if (rel.relkind !== 'r') return [`is not a plain table (relkind '${rel.relkind}')`];
  const oid = rel.oid;
  if (rel.persistence !== 'p') found.push('is not a permanent (logged) table: an unlogged table loses its rows in a crash');
  if (rel.rls) found.push('has row-level security enabled');
  const names = async (query: RawBuilder<{ name: string }>) => (await query.execute(db)).rows.map((r) => r.name);
  for (const name of await names(sql`select tgname as name from pg_trigger where tgrelid = ${oid} and not tgisinternal order by 1`)) {
    found.push(`has trigger '${name}'`);
  }
  for (const name of await names(sql`select rulename as name from pg_rewrite where ev_class = ${oid} order by 1`)) {
    found.push(`has rule '${name}'`);
  }
  for (const name of await names(sql`select polname as name from pg_policy where polrelid = ${oid} order by 1`)) {
    found.push(`has policy '${name}'`);
  }
  for (const name of await names(sql`select distinct v.relname as name from pg_depend d
      join pg_rewrite r on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid
      join pg_class v on v.oid = r.ev_class
      where d.refclassid = 'pg_class'::regclass and d.refobjid = ${oid} and v.oid <> ${oid} order by 1`)) {
    found.push(`is read by view '${name}'`);
  }
  for (const name of await names(sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = ${oid} union select c.relname from pg_inherits i join pg_class c on c.oid = i.inhparent where i.inhrelid = ${oid} order by 1`)) {
    found.push(`is in an inheritance tree with '${name}'`);
  }
  const constraints = (
    await sql<{ name: string; type: string; def: string }>`select conname as name, contype as type, pg_get_constraintdef(oid) as def
      from pg_constraint where conrelid = ${oid} order by 1`.execute(db)
  ).rows;
  for (const c of constraints) {
    if (c.type === 'n') continue;
    if (EXPECTED_CONSTRAINTS[c.name] !== c.def) found.push(`has constraint '${c.name}' (${c.def}) not in the v1 schema`);
  }
  for (const [name, def] of Object.entries(EXPECTED_CONSTRAINTS)) {
    if (name.startsWith(`${table}_`) && !constraints.some((c) => c.name === name)) found.push(`lacks constraint '${name}' (${def})`);
  }
  const columns = (
    await sql<{ name: string; type: string; generated: string; domain: string | null; collation: string | null }>`select column_name as name,
        data_type as type, is_generated as generated, domain_name as domain, collation_name as collation
      from information_schema.columns where table_schema = ${schema} and table_name = ${table} order by 1`.execute(db)
  ).rows;
  for (const column of columns) {
    if (column.type !== expectedType(column.name)) found.push(`column ${column.name} has type ${column.type}, not ${expectedType(column.name)}`);
    if (column.generated !== 'NEVER') found.push(`column ${column.name} is generated`);
    if (column.domain !== null) found.push(`column ${column.name} has domain type ${column.domain}`);
    // A nondeterministic collation would make `namespace = 'App'` match 'app': rows of another namespace.
    if (column.collation !== null && !(column.name === 'created_at' && column.collation === 'C')) {
      found.push(`column ${column.name} has collation ${column.collation}`);
    }
  }
  const indexes = (
    await sql<{ name: string; unique: boolean; partial: boolean; expression: boolean }>`select c.relname as name, i.indisunique as unique,
        i.indpred is not null as partial, i.indexprs is not null as expression
      from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = ${oid} order by 1`.execute(db)
  ).rows;
  for (const index of indexes) {
    // Indexes backing the v1 constraints were checked with them; ours are plain.
    if (index.name in EXPECTED_CONSTRAINTS) continue;
    if (index.unique) found.push(`has UNIQUE index '${index.name}': it could refuse valid checkpoints`);
    else if (index.partial) found.push(`has partial index '${index.name}': only plain extra indexes are accepted`);
    else if (index.expression) found.push(`has expression index '${index.name}': only plain extra indexes are accepted`);
  }
  return found;
}
