import { existsSync, statSync } from 'node:fs';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { MemorySaver } from '@langchain/langgraph-checkpoint';
import { CheckpointError, CheckpointValidationError, StoreNotFoundError } from '@session-checkpoint/core';
import { importOptional, postgresLocation } from '../official/open.js';
import { hasCheckpointsTable, storeUnder } from './indexes.js';

/**
 * An optional package that a feature needs is not installed. The message names the package and
 * the command that installs it.
 *
 * @example
 * ```ts
 * try { await openOfficialSaver('sqlite:chat.db'); } catch (e) { if (e instanceof MissingPackageError) console.error(e.packageName); }
 * ```
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

/** A saver opened by {@link openOfficialSaver}, with what closes its connection. */
export interface OpenedSaver {
  /** The checkpointer. */
  saver: BaseCheckpointSaver;
  /** `sqlite`, `postgres`, or `empty` (a stand-in for a missing one, see {@link OpenOfficialSaverOptions.ifMissing}). */
  kind: 'sqlite' | 'postgres' | 'empty';
  /** Closes the database file or the connection pool. */
  close(): Promise<void>;
}

/** Options of {@link openOfficialSaver}. */
export interface OpenOfficialSaverOptions {
  /**
   * When the location holds no saver (no file, or no `checkpoints` table): `'error'` throws
   * `StoreNotFoundError`; `'create'` creates the file and tables (the saver's `setup()`);
   * `'empty'` returns an empty in-memory stand-in, for a dry run into a saver that does not exist
   * yet. Default is `'error'`.
   */
  ifMissing?: 'error' | 'create' | 'empty';
}

const load = <T>(name: string, why: string, loader: () => Promise<T>): Promise<T> => importOptional(name, loader, (cause) => new MissingPackageError(name, why, { cause }));

/**
 * Opens one of LangGraph's official savers by location: `sqlite:PATH` opens a SqliteSaver on that
 * file (`@langchain/langgraph-checkpoint-sqlite`), `postgres://URL` (or `postgresql://`) a
 * PostgresSaver (`@langchain/langgraph-checkpoint-postgres`), in the schema of the URL's `schema`
 * parameter (default `public`). The saver packages are optional: they are imported here, and a
 * missing one gives a {@link MissingPackageError} naming it.
 *
 * @throws CheckpointValidationError for a location of neither form or a bad URL; StoreNotFoundError
 *   when it holds no saver and `ifMissing` is `'error'` (the default).
 * @example
 * ```ts
 * const { saver, close } = await openOfficialSaver('sqlite:chat.db');
 * try { await migrateCheckpoints(saver, ours, { apply: true }); } finally { await close(); }
 * ```
 */
export async function openOfficialSaver(location: string, options: OpenOfficialSaverOptions = {}): Promise<OpenedSaver> {
  const ifMissing = options.ifMissing ?? 'error';
  const empty = (): OpenedSaver => ({ saver: new MemorySaver(), kind: 'empty', close: async () => undefined });
  if (location.startsWith('sqlite:')) {
    const path = location.slice('sqlite:'.length);
    if (path === '') throw new CheckpointValidationError('sqlite: needs a file path (sqlite:PATH)');
    const exists = existsSync(path);
    if (exists && !statSync(path).isFile()) throw new CheckpointValidationError(`${path} is not a regular file`);
    if (!exists && ifMissing !== 'create') {
      if (ifMissing === 'empty') return empty();
      throw new StoreNotFoundError(`No SqliteSaver database at ${path}`);
    }
    const { SqliteSaver } = await load('@langchain/langgraph-checkpoint-sqlite', 'A sqlite: location', () => import('@langchain/langgraph-checkpoint-sqlite'));
    const saver = SqliteSaver.fromConnString(path);
    const close = async () => (saver as unknown as { db: { close(): void } }).db.close();
    const hasTables = await hasCheckpointsTable(storeUnder(saver));
    if (!hasTables && ifMissing !== 'create') {
      await close();
      if (ifMissing === 'empty') return empty();
      throw new StoreNotFoundError(`${path} holds no SqliteSaver tables (no checkpoints table)`);
    }
    // setup() is protected in SqliteSaver's types; every call runs it anyway, this one only early.
    if (!hasTables) (saver as unknown as { setup(): void }).setup();
    return { saver, kind: 'sqlite', close };
  }
  if (/^postgres(ql)?:\/\//i.test(location)) {
    const { url, schema } = postgresLocation(location, undefined);
    const { PostgresSaver } = await load('@langchain/langgraph-checkpoint-postgres', 'A postgres:// location', () => import('@langchain/langgraph-checkpoint-postgres'));
    const saver = PostgresSaver.fromConnString(url, { schema });
    const close = () => saver.end();
    try {
      const found = await hasCheckpointsTable(storeUnder(saver));
      if (!found && ifMissing === 'error') throw new StoreNotFoundError(`No PostgresSaver tables in schema ${JSON.stringify(schema)}`);
      if (!found && ifMissing === 'empty') {
        await close();
        return empty();
      }
      // setup() runs the saver's own migrations: needed for a new target, harmless on a current one.
      if (ifMissing === 'create') await saver.setup();
    } catch (error) {
      await close().catch(() => undefined);
      throw error;
    }
    return { saver, kind: 'postgres', close };
  }
  throw new CheckpointValidationError(`Unknown saver location ${JSON.stringify(location)}: expected sqlite:PATH or postgres://URL[?schema=S]`);
}
