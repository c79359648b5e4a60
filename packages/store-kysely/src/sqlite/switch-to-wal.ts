import { StoreSchemaError } from '@session-checkpoint/core';
import type { SqliteDatabaseLike } from './sqlite-database.js';

/** The longest pause between two tries, in milliseconds. */
const MAX_PAUSE_MS = 100;

/**
 * Switches a store file to WAL mode, waiting up to `busyTimeoutMs` for other connections.
 *
 * Why it retries itself: `PRAGMA journal_mode = WAL` reads the file first and then upgrades to a
 * write lock. SQLite never calls the busy handler for that upgrade (waiting could deadlock with a
 * writer that waits for our read lock to go), so while another process holds the write lock (for
 * example, creating the same new store under `BEGIN IMMEDIATE`) the pragma fails at once with
 * `SQLITE_BUSY`, whatever `busy_timeout` says. Our statement holds no lock between tries, so
 * pausing and trying again is safe, and the other writer finishes.
 *
 * @param location Path shown in messages.
 * @throws the last `SQLITE_BUSY` error once `busyTimeoutMs` has passed; StoreSchemaError when
 *   SQLite keeps another journal mode.
 * @example
 * ```ts
 * await switchToWal(database, './checkpoints.sqlite', 5000);
 * ```
 */
export async function switchToWal(database: SqliteDatabaseLike, location: string, busyTimeoutMs: number): Promise<void> {
  const deadline = Date.now() + busyTimeoutMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    let mode: { journal_mode?: string } | undefined;
    try {
      mode = database.prepare('PRAGMA journal_mode = WAL').get([]) as { journal_mode?: string } | undefined;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(1, deadline - Date.now()))));
      continue;
    }
    if (mode?.journal_mode !== 'wal') throw new StoreSchemaError(`Could not switch ${location} to WAL mode (got ${String(mode?.journal_mode)})`);
    return;
  }
}

/** `SQLITE_BUSY` and its extended codes (`SQLITE_BUSY_RECOVERY`, `SQLITE_BUSY_SNAPSHOT`, ...). */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
