import { existsSync, statSync } from 'node:fs';
import type { MemoryStorage, WorkflowsStorage } from '@mastra/core/storage';
import { CheckpointError, CheckpointValidationError, StoreNotFoundError } from '@session-checkpoint/core';

/**
 * An optional package that a feature needs is not installed. The message names the package and
 * the command that installs it (the same name and message as `@session-checkpoint/langgraph`'s).
 */
export class MissingPackageError extends CheckpointError {
  /** The package to install. */
  readonly packageName: string;
  constructor(packageName: string, why: string, options?: { cause?: unknown }) {
    super(`${why} needs ${packageName}, which is not installed: run npm install ${packageName}`, options);
    this.name = 'MissingPackageError';
    this.packageName = packageName;
  }
}

/** Mastra's own storage, opened by {@link openMastraStore}. */
export interface OpenedMastraStore {
  /** `libsql` or `postgres`. */
  kind: 'libsql' | 'postgres';
  /** Its memory and workflows domains, for {@link migrateMastra}. */
  memory: MemoryStorage;
  workflows: WorkflowsStorage;
  /** Closes the file or the connection pool. */
  close(): Promise<void>;
}

async function load<T>(name: string, why: string, loader: () => Promise<T>): Promise<T> {
  try {
    return await loader();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes(name)) throw new MissingPackageError(name, why, { cause: error });
    throw error;
  }
}

/**
 * Opens the storage of `@mastra/libsql` or `@mastra/pg` by location, to move it in with
 * `migrateMastra`: `libsql:PATH` opens a LibSQLStore on that file, `postgres://URL` (or
 * `postgresql://`) a PostgresStore in the schema of the URL's `schema` parameter (default
 * `public`). Both packages are optional peers, imported here; a missing one gives a
 * {@link MissingPackageError} naming it. A location that holds no Mastra tables is refused before
 * anything is created there.
 *
 * @throws CheckpointValidationError for a location of neither form; StoreNotFoundError when the
 *   file or the schema holds no Mastra storage.
 * @example
 * ```ts
 * const source = await openMastraStore('libsql:./mastra.db');
 * try { await migrateMastra(source, { memory, workflows }, { apply: true }); } finally { await source.close(); }
 * ```
 */
export async function openMastraStore(location: string): Promise<OpenedMastraStore> {
  if (location.startsWith('libsql:')) {
    const path = location.slice('libsql:'.length);
    if (path === '') throw new CheckpointValidationError('libsql: needs a file path (libsql:PATH)');
    if (!existsSync(path)) throw new StoreNotFoundError(`No @mastra/libsql database at ${path}`);
    if (!statSync(path).isFile()) throw new CheckpointValidationError(`${path} is not a regular file`);
    const { LibSQLStore } = await load('@mastra/libsql', 'A libsql: location', () => import('@mastra/libsql'));
    const store = new LibSQLStore({ id: 'session-checkpoint-migration', url: `file:${path}`, disableInit: true });
    const client = (store as unknown as { client: { execute(sql: string): Promise<{ rows: unknown[] }> } }).client;
    const tables = await client.execute(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('mastra_threads', 'mastra_workflow_snapshot')`);
    if (tables.rows.length === 0) {
      await store.close();
      throw new StoreNotFoundError(`${path} holds no @mastra/libsql tables (no mastra_threads or mastra_workflow_snapshot)`);
    }
    return { kind: 'libsql', memory: (await store.getStore('memory')) as MemoryStorage, workflows: (await store.getStore('workflows')) as WorkflowsStorage, close: () => store.close() };
  }
  if (/^postgres(ql)?:\/\//i.test(location)) {
    let url: URL;
    try {
      url = new URL(location);
    } catch {
      throw new CheckpointValidationError('Not a valid PostgreSQL URL (expected postgres://user@host:5432/db[?schema=S])');
    }
    const schema = url.searchParams.get('schema') ?? 'public';
    if (schema === '') throw new CheckpointValidationError('The schema parameter of the PostgreSQL URL is empty');
    url.searchParams.delete('schema');
    const { PostgresStore } = await load('@mastra/pg', 'A postgres:// location', () => import('@mastra/pg'));
    const store = new PostgresStore({ id: 'session-checkpoint-migration', connectionString: url.toString(), schemaName: schema, disableInit: true });
    const pool = (store as unknown as { pool: { query(sql: string, values: unknown[]): Promise<{ rows: unknown[] }> } }).pool;
    let found: unknown[];
    try {
      found = (await pool.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name IN ('mastra_threads', 'mastra_workflow_snapshot')`, [schema])).rows;
    } catch (error) {
      await store.close();
      throw error;
    }
    if (found.length === 0) {
      await store.close();
      throw new StoreNotFoundError(`schema ${schema} holds no @mastra/pg tables (no mastra_threads or mastra_workflow_snapshot)`);
    }
    return { kind: 'postgres', memory: (await store.getStore('memory')) as MemoryStorage, workflows: (await store.getStore('workflows')) as WorkflowsStorage, close: () => store.close() };
  }
  throw new CheckpointValidationError('a Mastra storage location is libsql:PATH or postgres://URL[?schema=S]');
}
