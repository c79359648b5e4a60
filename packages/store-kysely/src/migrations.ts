import type { Kysely } from 'kysely';
import { rawQuery } from './raw-query.js';
import { NAMESPACE_INDEX, SCHEMA_VERSION, SESSION_INDEX } from './schema.js';
import type { SqlFlavor } from './sql-flavor.js';

/*
 * Schema versions are recorded where the Python reference looks for them, never in extra tables
 * (it refuses a SQLite file with any table besides its two): the `checkpoint_meta` row
 * `schema_version`, plus `PRAGMA user_version` on SQLite. Kysely's Migrator is not used for that
 * reason: it keeps its state in tables of its own.
 */

/** What {@link migrateToLatest} did. */
export interface MigrationReport {
  /** True when the store was created by this call. */
  created: boolean;
  /** Schema version found (0 for a new store). */
  from: number;
  /** Schema version now. */
  to: number;
}

/*
 * The v1 migration on SQLite: the tables exactly as the Python reference creates them, whitespace
 * included (fixtures/python-v1/py-store.manifest.json, `schema_sql`). SQLite keeps this text in
 * `sqlite_master`, so a store we create is indistinguishable from one the Python tool created,
 * and sqlite/sqlite-schema.ts holds every file it opens to the same text.
 */

/** `CREATE TABLE checkpoint_meta`, verbatim from the reference. */
export const CREATE_META_TABLE = `CREATE TABLE checkpoint_meta (
                            key TEXT PRIMARY KEY,
                            value TEXT NOT NULL
                        )`;

/** `CREATE TABLE checkpoints`, verbatim from the reference. */
export const CREATE_CHECKPOINTS_TABLE = `CREATE TABLE checkpoints (
                            id INTEGER PRIMARY KEY AUTOINCREMENT,
                            namespace TEXT NOT NULL,
                            session_id TEXT NOT NULL,
                            kind TEXT NOT NULL,
                            name TEXT NOT NULL,
                            payload_json TEXT NOT NULL,
                            payload_sha256 TEXT NOT NULL,
                            created_at TEXT NOT NULL,
                            source_ref TEXT,
                            UNIQUE(namespace, source_ref)
                        )`;

/** The reference's namespace index, verbatim. */
export const CREATE_NAMESPACE_INDEX = `CREATE INDEX ${NAMESPACE_INDEX}
                            ON checkpoints(namespace, created_at DESC, id DESC)`;

/**
 * Ours: serves latest/history/retention per session. `IF NOT EXISTS` because stores created by
 * the Python tool get it on first open.
 */
export const CREATE_SESSION_INDEX = `CREATE INDEX IF NOT EXISTS ${SESSION_INDEX}
                            ON checkpoints(namespace, session_id, created_at DESC, id DESC)`;

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
