import { runConformanceSuite } from '@session-checkpoint/conformance';
import Database from 'better-sqlite3';
import { afterAll, describe, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
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

// Every backend runs the whole adapter contract, as every adapter in this repository does.

describe('SQLite file', () => {
  runConformanceSuite({ describe, it }, async () => {
    const dir = tempDir();
    const path = dir.file('store.sqlite');
    const adapter = await openSqliteAdapter(path);
    // A second connection, as another process would have, writes the raw values.
    const raw = new Database(path);
    return {
      adapter,
      tamper: async (id, patch) => tamperSqlite(raw, id, patch),
      reopen: () => openSqliteAdapter(path, { create: false }),
      destroy: async () => {
        raw.close();
        await adapter.close();
        dir.remove();
      },
    };
  });
});

describe('SQLite :memory:', () => {
  runConformanceSuite({ describe, it }, async () => {
    // Opened here rather than by path, so tampering can use the same (only) connection.
    const database = new Database(':memory:');
    const adapter = await createSqliteAdapter(database as unknown as SqliteDatabaseLike, { ownsDatabase: true });
    return {
      adapter,
      tamper: async (id, patch) => tamperSqlite(database, id, patch),
      destroy: () => adapter.close(),
    };
  });
});

describe('SQLite through a plain Kysely instance (no prepared-statement fast path)', () => {
  runConformanceSuite({ describe, it }, async () => {
    const database = new Database(':memory:');
    const db = new Kysely<CheckpointDatabase>({ dialect: new SqliteDialect({ database }) });
    await migrateToLatest(db);
    const adapter = new KyselyAdapter(db, { ownsDatabase: true, capabilities: { multiProcess: false, persistent: false } });
    return {
      adapter,
      tamper: async (id, patch) => tamperSqlite(database, id, patch),
      destroy: () => adapter.close(),
    };
  });
});

describe.skipIf(!PG_URL)('PostgreSQL', () => {
  const pool = PG_URL ? testPool(8) : undefined;
  const schemas: string[] = [];
  afterAll(async () => {
    if (!pool) return;
    for (const schema of schemas) await dropSchema(pool, schema);
    await pool.end();
  });
  runConformanceSuite({ describe, it }, async () => {
    const schema = uniqueSchema('sc_conf');
    schemas.push(schema);
    const adapter = await openPostgresAdapter(pool!, { schema });
    return {
      adapter,
      tamper: (id, patch) => tamperPostgres(pool!, schema, id, patch),
      reopen: () => openPostgresAdapter(pool!, { schema, create: false }),
      destroy: async () => {
        await adapter.close();
        await dropSchema(pool!, schema);
      },
    };
  });
});
