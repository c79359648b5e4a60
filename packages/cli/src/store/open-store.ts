import type { CheckpointStore, Keyring } from '@session-checkpoint/core';
import type { StoreSelection } from './store-selection.js';

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /**
   * Create and initialise a missing store (SQLite file, or PostgreSQL tables). Default is
   * `false`: only `init`, `create` and `import` create stores; everything else fails with
   * `StoreNotFoundError`.
   */
  create?: boolean;
  /**
   * Open for reading only (the inspector): a SQLite file is opened read-only, and a PostgreSQL
   * session starts with `default_transaction_read_only`, so the server itself refuses any write.
   * Default is `false`.
   */
  readOnly?: boolean;
  /**
   * Seal and encrypt with these keys (a sealed store, docs/sealing.md). Default is none: a plain
   * store, opened exactly as without sealing.
   */
  keys?: Keyring;
  /** With `keys`: accept plaintext rows (migrating a plain store; `rekey --allow-plaintext`). Default is `false`. */
  allowPlaintext?: boolean;
  /**
   * The command writes rows: a sealed store opened without keys is refused (`StoreSecurityError`)
   * before anything is written, since its new rows would be plaintext. Default is `false`.
   */
  write?: boolean;
}

/** The URL with `default_transaction_read_only=on` added to the session's startup options. */
function readOnlyUrl(url: string): string {
  const parsed = new URL(url);
  const options = parsed.searchParams.get('options');
  parsed.searchParams.set('options', `${options === null ? '' : `${options} `}-c default_transaction_read_only=on`);
  return parsed.toString();
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
  const keys = options.keys === undefined ? {} : { keys: options.keys, ...(options.allowPlaintext === true ? { allowPlaintext: true } : {}) };
  if (selection.kind === 'sqlite') {
    return adapter.openSqliteStore(selection.path, { create: options.create === true, ...(options.readOnly === true ? { readOnly: true } : {}), ...keys });
  }
  return adapter.openPostgresStore(options.readOnly === true ? readOnlyUrl(selection.url) : selection.url, {
    create: options.create === true,
    ...keys,
    ...(selection.schema === undefined ? {} : { schema: selection.schema }),
    ...(selection.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: selection.connectTimeoutMs }),
  });
}
