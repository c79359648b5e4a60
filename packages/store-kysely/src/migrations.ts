import type { Kysely } from 'kysely';
import { rawQuery } from './raw-query.js';
import { NAMESPACE_INDEX, SCHEMA_VERSION, SESSION_INDEX } from './schema.js';
import type { SqlFlavor } from './sql-flavor.js';
import { CREATE_CHECKPOINTS_TABLE, CREATE_META_TABLE, CREATE_NAMESPACE_INDEX, CREATE_SESSION_INDEX } from './sqlite/sqlite-ddl.js';

/*
 * Schema versions are recorded where the Python reference looks for them, never in extra tables
 * (it refuses a SQLite file with any table besides its two): the `checkpoint_meta` row
 * `schema_version`, plus `PRAGMA user_version` on SQLite. Kysely's Migrator is not used for that
 * reason: it keeps its state in tables of its own.
 */

/** Where a migration runs. */
export interface MigrationContext {
  readonly flavor: SqlFlavor;
  /** PostgreSQL schema of the tables; unused on SQLite. */
  readonly schema: string;
}

/** One step of the schema, applied inside the caller's locked transaction. */
export interface SchemaMigration {
  /** The schema version the store has after this step. */
  readonly version: number;
  readonly description: string;
  up(db: Kysely<any>, context: MigrationContext): Promise<void>;
}

/**
 * Every schema step, oldest first. A step that the Python tool could not read must be a
 * deliberate, opt-in version bump: it raises `schema_version`/`user_version`, which the Python
 * tool then refuses.
 */
export const MIGRATIONS: readonly SchemaMigration[] = [
  {
    version: 1,
    description: 'v1 schema of the Python reference: checkpoint_meta, checkpoints, namespace and session indexes',
    async up(db, { flavor, schema }) {
      if (flavor === 'sqlite') {
        for (const ddl of [CREATE_META_TABLE, CREATE_CHECKPOINTS_TABLE, CREATE_NAMESPACE_INDEX, CREATE_SESSION_INDEX]) {
          await db.executeQuery(rawQuery(ddl));
        }
        return;
      }
      // Loaded here, not at the top: opening a current SQLite store must not evaluate Kysely.
      const { sql } = await import('kysely');
      const scoped = db.withSchema(schema);
      await scoped.schema
        .createTable('checkpoint_meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      // created_at collates as bytes ("C"), like SQLite's BINARY: list order must not depend on the server locale.
      await scoped.schema
        .createTable('checkpoints')
        .addColumn('id', 'bigint', (c) => c.generatedByDefaultAsIdentity().primaryKey())
        .addColumn('namespace', 'text', (c) => c.notNull())
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('payload_json', 'text', (c) => c.notNull())
        .addColumn('payload_sha256', 'text', (c) => c.notNull())
        .addColumn('created_at', sql`text collate "C"`, (c) => c.notNull())
        .addColumn('source_ref', 'text')
        .addUniqueConstraint('checkpoints_namespace_source_ref_key', ['namespace', 'source_ref'])
        .execute();
      await scoped.schema
        .createIndex(NAMESPACE_INDEX)
        .on('checkpoints')
        .columns(['namespace', 'created_at desc', 'id desc'])
        .execute();
      await scoped.schema
        .createIndex(SESSION_INDEX)
        .on('checkpoints')
        .columns(['namespace', 'session_id', 'created_at desc', 'id desc'])
        .execute();
    },
  },
];

/** The newest schema version this package writes. */
export const LATEST_SCHEMA_VERSION = SCHEMA_VERSION;

/** Records `version` in the meta row (and `user_version` on SQLite), in the caller's transaction. */
export async function recordSchemaVersion(db: Kysely<any>, context: MigrationContext, version: number): Promise<void> {
  if (!Number.isSafeInteger(version) || version <= 0) throw new RangeError(`bad schema version ${version}`);
  if (context.flavor === 'sqlite') await db.executeQuery(rawQuery(`PRAGMA user_version = ${version}`));
  const scoped = context.flavor === 'postgres' ? db.withSchema(context.schema) : db;
  await scoped
    .insertInto('checkpoint_meta')
    .values({ key: 'schema_version', value: String(version) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(version) }))
    .execute();
}

/** Applies every migration above `from`, recording each version. Returns the version reached. */
export async function applyMigrations(db: Kysely<any>, context: MigrationContext, from: number): Promise<number> {
  let version = from;
  for (const migration of MIGRATIONS) {
    if (migration.version <= version) continue;
    await migration.up(db, context);
    await recordSchemaVersion(db, context, migration.version);
    version = migration.version;
  }
  return version;
}

/** @internal The session index DDL for stores created before it existed (the Python tool's). */
export const ENSURE_SESSION_INDEX = CREATE_SESSION_INDEX;
