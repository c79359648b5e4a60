// Opens the store a process test names, in the test and in its child processes alike:
//   sqlite:<path>             a SQLite file
//   postgres:<schema>         PostgreSQL through openPostgresStore (the adapter's transaction lock)
//   postgres-lockrow:<schema> PostgreSQL through a KyselyAdapter that does not declare
//                             transactionLocks, so the saver falls back to its lock row
import { CheckpointStore } from '@session-checkpoint/core';
import { KyselyAdapter, openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';

/**
 * @param {string} target
 * @param {{ busyTimeoutMs?: number, poolSize?: number }} [options]
 * @returns {Promise<CheckpointStore>}
 */
export async function openTarget(target, options = {}) {
  const colon = target.indexOf(':');
  const kind = target.slice(0, colon);
  const where = target.slice(colon + 1);
  const poolSize = options.poolSize ?? 2;
  if (kind === 'sqlite') return openSqliteStore(where, options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs });
  if (kind === 'postgres') return openPostgresStore(process.env.SC_PG_URL ?? '', { schema: where, poolSize });
  if (kind === 'postgres-lockrow') {
    // The schema is made by openPostgresStore first; this adapter then only leaves out the lock.
    await (await openPostgresStore(process.env.SC_PG_URL ?? '', { schema: where, poolSize: 1 })).close();
    const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.SC_PG_URL, max: poolSize }) }) });
    return new CheckpointStore(
      new KyselyAdapter(db, { flavor: 'postgres', schema: where, ownsDatabase: true, capabilities: { multiProcess: true, persistent: true, transactionLocks: false } }),
    );
  }
  throw new Error(`unknown target ${target}`);
}
