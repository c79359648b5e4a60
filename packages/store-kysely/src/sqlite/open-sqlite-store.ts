import { CheckpointStore, type CheckpointStoreOptions } from '@session-checkpoint/core';
import { storeOptions } from '../store-options.js';
import { openSqliteAdapter } from './open-sqlite-adapter.js';
import type { SqliteAdapterOptions } from './sqlite-options.js';

/** Options of {@link openSqliteStore}: the file's and the store's. */
export interface SqliteStoreOptions extends SqliteAdapterOptions, CheckpointStoreOptions {}

/**
 * Opens (or creates) a SQLite checkpoint store file: the embedded default. WAL mode, a busy
 * timeout (default 5000 ms), `synchronous=FULL` unless `durability: "normal"`, owner-only files.
 * Stores written by the Python reference open as they are, and the Python tool opens ours.
 * See {@link openSqliteAdapter} for what happens to the file.
 *
 * @example
 * ```ts
 * const store = await openSqliteStore('./checkpoints.sqlite');
 * await store.create({ sessionId: 's-1', payload: { step: 1 } });
 * await store.close();
 *
 * // read-only use: never creates anything
 * const existing = await openSqliteStore('./checkpoints.sqlite', { create: false });
 * ```
 */
export async function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Promise<CheckpointStore> {
  const adapter = await openSqliteAdapter(path, options);
  try {
    return new CheckpointStore(adapter, storeOptions(options));
  } catch (error) {
    await adapter.close();
    throw error;
  }
}
