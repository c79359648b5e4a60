import type { CheckpointStore } from '@session-checkpoint/core';
import type { StoreSelection } from './store-selection.js';

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /**
   * Create and initialise a missing store (SQLite file, or PostgreSQL tables). Default is
   * `false`: only `init`, `create` and `import` create stores; everything else fails with
   * `StoreNotFoundError`.
   */
  create?: boolean;
}

/**
 * Opens the selected store through `@session-checkpoint/store-kysely`. The adapter package (and
 * with it Kysely, better-sqlite3 or pg) is imported here, on first use, so commands that never
 * touch a store (`--help`, `create --dry-run`) start without it.
 *
 * @example
 * ```ts
 * const store = await openStore({ kind: 'sqlite', path: '/tmp/app.sqlite' }, { create: true });
 * try { await store.list(); } finally { await store.close(); }
 * ```
 */
export async function openStore(selection: StoreSelection, options: OpenStoreOptions = {}): Promise<CheckpointStore> {
  const adapter = await import('@session-checkpoint/store-kysely');
  if (selection.kind === 'sqlite') {
    return adapter.openSqliteStore(selection.path, { create: options.create === true });
  }
  return adapter.openPostgresStore(selection.url, {
    create: options.create === true,
    ...(selection.schema === undefined ? {} : { schema: selection.schema }),
    ...(selection.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: selection.connectTimeoutMs }),
  });
}
