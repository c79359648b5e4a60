import { runConformanceSuite } from '@session-checkpoint/conformance';
import Database from 'better-sqlite3';
import { afterAll, describe, it } from 'vitest';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import {
  createSqliteAdapter,
  KyselyAdapter,
  migrateToLatest,
  openPostgresAdapter,
  openSqliteAdapter,
  type CheckpointDatabase,
  type SqliteDatabaseLike,
} from './index.js';
import { dropSchema, PG_URL, tamperPostgres, testPool, uniqueSchema } from './test-support/postgres.js';
import { tamperSqlite } from './test-support/sqlite-tamper.js';
import { tempDir } from './test-support/temp-dir.js';

/** What the multi-process case's child processes open the store with. */
const CHILD_OPENER = new URL('./test-support/conformance-child.mjs', import.meta.url).href;

// Every backend runs the whole adapter contract, as every adapter in this repository does. The suite
// reads each adapter's capabilities before registering, hence the async describe blocks.

describe('SQLite file', async () => {
  await runConformanceSuite({ describe, it }, async () => {
    const dir = tempDir();
    const path = dir.file('store.sqlite');
    const adapter = await openSqliteAdapter(path);
    // A second connection, as another process would have, writes the raw values.
    const raw = new Database(path);
    return {
      adapter,
      storesBytes: true,
      tamper: async (id, patch) => tamperSqlite(raw, id, patch),
      reopen: () => openSqliteAdapter(path, { create: false }),
      otherProcess: { module: CHILD_OPENER, location: `sqlite:${path}` },
      destroy: async () => {
        raw.close();
        await adapter.close();
        dir.remove();
      },
    };
  });
});

describe('SQLite :memory:', async () => {
  await runConformanceSuite({ describe, it }, async () => {
    // Opened here rather than by path, so tampering can use the same (only) connection.
    const database = new Database(':memory:');
    const adapter = await createSqliteAdapter(database as unknown as SqliteDatabaseLike, { ownsDatabase: true });
    return {
      adapter,
      storesBytes: true,
      tamper: async (id, patch) => tamperSqlite(database, id, patch),
      destroy: () => adapter.close(),
    };
  });
});

describe('SQLite through a plain Kysely instance (no prepared-statement fast path)', async () => {
  await runConformanceSuite({ describe, it }, async () => {
    const database = new Database(':memory:');
    const db = new Kysely<CheckpointDatabase>({ dialect: new SqliteDialect({ database }) });
    await migrateToLatest(db);
    const adapter = new KyselyAdapter(db, { ownsDatabase: true, capabilities: { multiProcess: false, persistent: false } });
    return {
      adapter,
      storesBytes: true,
      tamper: async (id, patch) => tamperSqlite(database, id, patch),
      destroy: () => adapter.close(),
    };
  });
});

describe.skipIf(!PG_URL)('PostgreSQL', async () => {
  if (!PG_URL) return;
  const pool = testPool(8);
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(pool, schema);
    await pool.end();
  });
  // A text column cannot hold bytes: the byte-tampering case is skipped here (storesBytes unset).
  await runConformanceSuite({ describe, it }, async () => {
    const schema = uniqueSchema('sc_conf');
    schemas.push(schema);
    const adapter = await openPostgresAdapter(pool, { schema });
    return {
      adapter,
      tamper: (id, patch) => tamperPostgres(pool, schema, id, patch),
      reopen: () => openPostgresAdapter(pool, { schema, create: false }),
      otherProcess: { module: CHILD_OPENER, location: `pg:${schema}` },
      destroy: async () => {
        await adapter.close();
        await dropSchema(pool, schema);
      },
    };
  });
});

// The PostgreSQL front door runs its statements on pg directly (postgres/pg-connection.ts); an
// adapter over a caller's own Kysely instance runs them through Kysely's executor and
// transactions. Both paths run the whole contract.
describe.skipIf(!PG_URL)('PostgreSQL through a plain Kysely instance (Kysely executor and transactions)', async () => {
  if (!PG_URL) return;
  const pool = testPool(4);
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(pool, schema);
    await pool.end();
  });
  await runConformanceSuite({ describe, it }, async () => {
    const schema = uniqueSchema('sc_confk');
    schemas.push(schema);
    const db = new Kysely<CheckpointDatabase>({ dialect: new PostgresDialect({ pool: testPool(4) }) });
    await migrateToLatest(db, { schema });
    const adapter = new KyselyAdapter(db, { schema, ownsDatabase: true, capabilities: { multiProcess: false, persistent: false } });
    return {
      adapter,
      tamper: (id, patch) => tamperPostgres(pool, schema, id, patch),
      destroy: async () => {
        await adapter.close();
        await dropSchema(pool, schema);
      },
    };
  });
});
