import { existsSync, statSync } from 'node:fs';
import { CheckpointValidationError, StoreNotFoundError } from '@session-checkpoint/core';

/*
 * Read-only connections to the official savers' databases, by location. Only the database
 * drivers are loaded (better-sqlite3, pg), never a LangGraph package.
 *
 * SQLite: SqliteSaver puts its file in WAL mode, and a read-only connection to a WAL file leaves
 * an empty `-wal` and a `-shm` beside it. So when no `-wal` is there, the file is opened for
 * writing with `PRAGMA query_only` (SQLite refuses every change), and SQLite removes the files it
 * made when the last connection closes; when a `-wal` is there (a saver is running, or one
 * crashed), the file is opened read-only and the files are left as they were.
 */

/** Which official saver wrote a store. */
export type OfficialKind = 'sqlite' | 'postgres';

/** A row of a query, by column name. */
export type OfficialRow = Record<string, unknown>;

/** An open official store: its kind, where it is, and read-only queries with `$1`-style parameters. */
export interface OfficialStore {
  readonly kind: OfficialKind;
  /** `sqlite:PATH`, or the PostgreSQL URL with its password hidden. */
  readonly location: string;
  /** The PostgreSQL schema, or `main` (SQLite's name for the file's own schema). */
  readonly schema: string;
  /** Quoted table names: `checkpoints`, and `writes` (SqliteSaver) or `checkpoint_writes` and `checkpoint_blobs` (PostgresSaver). */
  readonly tables: { checkpoints: string; writes: string; blobs: string | null };
  /** Runs one read-only query. */
  query(sql: string, args?: readonly unknown[]): Promise<OfficialRow[]>;
  /** Closes the file or the connection pool. */
  close(): Promise<void>;
}

/** Options of {@link openOfficialStore}. */
export interface OpenOfficialStoreOptions {
  /** PostgreSQL schema of PostgresSaver's tables. Default is the URL's `schema` parameter, else `public`. */
  schema?: string;
}

interface SqliteDatabase {
  prepare(sql: string): { all(...args: unknown[]): unknown[] };
  pragma(sql: string): unknown;
  close(): void;
}

/** `loader()` (an `import` of the package `name`), or the error of `missing` when that package is not installed. */
export async function importOptional<T>(name: string, loader: () => Promise<T>, missing: (cause: unknown) => Error): Promise<T> {
  try {
    return await loader();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes(name)) throw missing(error);
    throw error;
  }
}

const driver = <T>(name: string, loader: () => Promise<T>): Promise<T> =>
  importOptional(name, loader, (cause) => new CheckpointValidationError(`reading this store needs ${name}, which is not installed: run npm install ${name}`, { cause }));

async function openSqlite(path: string): Promise<OfficialStore> {
  if (path === '') throw new CheckpointValidationError('sqlite: needs a file path (sqlite:PATH)');
  if (!existsSync(path)) throw new StoreNotFoundError(`No SqliteSaver database at ${path}`);
  if (!statSync(path).isFile()) throw new CheckpointValidationError(`${path} is not a regular file`);
  const { default: Database } = await driver('better-sqlite3', () => import('better-sqlite3'));
  const live = existsSync(`${path}-wal`);
  let db: SqliteDatabase;
  try {
    db = new Database(path, { fileMustExist: true, readonly: live }) as unknown as SqliteDatabase;
  } catch {
    // Not writable (a read-only file or folder): a read-only connection works there and leaves nothing.
    db = new Database(path, { fileMustExist: true, readonly: true }) as unknown as SqliteDatabase;
  }
  try {
    db.pragma('query_only = ON');
    const found = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('checkpoints', 'writes')`).all() as { name: string }[];
    if (found.length < 2) throw new StoreNotFoundError(`${path} holds no SqliteSaver tables (needs checkpoints and writes)`);
  } catch (error) {
    db.close();
    if ((error as { code?: unknown }).code === 'SQLITE_NOTADB') throw new StoreNotFoundError(`${path} is not a SQLite database`, { cause: error });
    throw error;
  }
  return { ...officialStoreOver({ kind: 'sqlite', db }), location: `sqlite:${path}`, close: async () => db.close() };
}

/**
 * The URL without its `schema` parameter, and the schema (the option first, then the parameter, then `public`).
 *
 * @throws CheckpointValidationError for a URL that does not parse, names neither host nor database, or an empty schema.
 */
export function postgresLocation(location: string, schemaOption: string | undefined): { url: string; schema: string; shown: string } {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new CheckpointValidationError(`Not a valid PostgreSQL URL: ${JSON.stringify(location.replace(/\/\/[^@/]*@/, '//***@'))} (expected postgres://user@host:5432/db[?schema=S])`);
  }
  // Neither host nor database: the driver would fall back to its defaults (PGHOST, the local socket) instead.
  if (url.hostname === '' && url.pathname.replace(/^\//, '') === '') throw new CheckpointValidationError('The PostgreSQL URL names no host or database (expected postgres://user@host:5432/db[?schema=S])');
  const schema = schemaOption ?? url.searchParams.get('schema') ?? 'public';
  if (schema === '') throw new CheckpointValidationError('the PostgreSQL schema is empty');
  url.searchParams.delete('schema');
  const shown = new URL(url.toString());
  if (shown.password !== '') shown.password = '***';
  return { url: url.toString(), schema, shown: shown.toString() };
}

async function openPostgres(location: string, schemaOption: string | undefined): Promise<OfficialStore> {
  const { url, schema, shown } = postgresLocation(location, schemaOption);
  const pg = await driver('pg', () => import('pg'));
  const Pool = (pg as { default?: { Pool: typeof import('pg').Pool } }).default?.Pool ?? (pg as unknown as { Pool: typeof import('pg').Pool }).Pool;
  // Every session of the pool is read-only: PostgreSQL refuses any write in it.
  const pool = new Pool({ connectionString: url, max: 2, options: '-c default_transaction_read_only=on' });
  const store: OfficialStore = { ...officialStoreOver({ kind: 'postgres', pool, schema }), location: shown, close: () => pool.end() };
  try {
    const { rows } = await pool.query(`SELECT to_regclass($1) IS NOT NULL AS c, to_regclass($2) IS NOT NULL AS w, to_regclass($3) IS NOT NULL AS b`, [store.tables.checkpoints, store.tables.writes, store.tables.blobs]);
    const r = rows[0] as { c: boolean; w: boolean; b: boolean } | undefined;
    if (!r?.c || !r.w || !r.b) throw new StoreNotFoundError(`No PostgresSaver tables in schema ${JSON.stringify(schema)} of ${shown} (needs checkpoints, checkpoint_blobs and checkpoint_writes)`);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return store;
}

/**
 * Opens an official saver's store for reading: `sqlite:PATH` (a SqliteSaver file) or
 * `postgres://...` / `postgresql://...` (a PostgresSaver database; schema from `options.schema`,
 * else the URL's `schema` parameter, else `public`). Nothing is ever written: SQLite runs with
 * `query_only`, PostgreSQL sessions with `default_transaction_read_only`.
 *
 * @throws StoreNotFoundError when the file does not exist or the tables are not there.
 * @throws CheckpointValidationError for a location of neither form.
 * @example
 * ```ts
 * const store = await openOfficialStore('sqlite:checkpoints.db');
 * try { console.log(await officialThreads(store)); } finally { await store.close(); }
 * ```
 */
export async function openOfficialStore(location: string, options: OpenOfficialStoreOptions = {}): Promise<OfficialStore> {
  if (location.startsWith('sqlite:')) return openSqlite(location.slice('sqlite:'.length));
  if (/^postgres(ql)?:\/\//i.test(location)) return openPostgres(location, options.schema);
  throw new CheckpointValidationError(`Unknown store location ${JSON.stringify(location)}: expected sqlite:PATH or postgres://URL[?schema=S]`);
}

/** A connection opened (and closed) by someone else: a SqliteSaver's better-sqlite3 `db`, or a PostgresSaver's `pool` and schema. */
export type OfficialConnection =
  | { kind: 'sqlite'; db: { prepare(sql: string): { all(...args: unknown[]): unknown[] } } }
  | { kind: 'postgres'; pool: { query(sql: string, args?: unknown[]): Promise<{ rows: unknown[] }> }; schema: string };

/**
 * An {@link OfficialStore} over a connection already open (the migration reads a SqliteSaver or
 * PostgresSaver it was given through this). Queries only read; `close` leaves the connection open.
 *
 * @example
 * ```ts
 * const store = officialStoreOver({ kind: 'sqlite', db: sqliteSaver.db });
 * ```
 */
export function officialStoreOver(connection: OfficialConnection): OfficialStore {
  if (connection.kind === 'sqlite') {
    const { db } = connection;
    return {
      kind: 'sqlite',
      location: 'sqlite:(open connection)',
      schema: 'main',
      tables: { checkpoints: 'checkpoints', writes: 'writes', blobs: null },
      query: async (sql, args = []) => db.prepare(sql.replace(/\$\d+/g, '?')).all(...args) as OfficialRow[],
      close: async () => undefined,
    };
  }
  const { pool, schema } = connection;
  const quote = (name: string) => `"${schema.replace(/"/g, '""')}".${name}`;
  return {
    kind: 'postgres',
    location: 'postgres:(open pool)',
    schema,
    tables: { checkpoints: quote('checkpoints'), writes: quote('checkpoint_writes'), blobs: quote('checkpoint_blobs') },
    query: async (sql, args = []) => (await pool.query(sql, [...args])).rows as OfficialRow[],
    close: async () => undefined,
  };
}
