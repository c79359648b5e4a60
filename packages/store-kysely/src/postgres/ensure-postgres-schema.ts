import { StoreNotFoundError } from '@session-checkpoint/core';
import { sql, type Kysely } from 'kysely';
import { applyMigrations, LATEST_SCHEMA_VERSION } from '../migrations.js';
import type { MigrationReport } from '../migrations.js';
import { inspectPostgresSchema } from './validate-postgres-schema.js';

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
