import { resolve } from 'node:path';
import { expandHome } from '../input/expand-home.js';
import { UsageError } from '../errors/usage-error.js';

/** Environment variable naming the SQLite store file when `--store` is not given. */
export const STORE_ENV = 'SESSION_CHECKPOINT_STORE';
/** Environment variable holding the PostgreSQL URL when `--database-url` is not given. */
export const DATABASE_URL_ENV = 'SESSION_CHECKPOINT_DATABASE_URL';

/** Which store a command works on. */
export type StoreSelection =
  | { readonly kind: 'sqlite'; /** Absolute path of the store file. */ readonly path: string }
  | { readonly kind: 'postgres'; /** Connection URL, credentials included. */ readonly url: string };

/** The store flags as parsed. */
export interface StoreFlagValues {
  store?: string | undefined;
  'database-url'?: string | undefined;
}

function fromPath(path: string, origin: string): StoreSelection {
  if (path === '') throw new UsageError(`${origin} must not be empty`);
  return { kind: 'sqlite', path: resolve(expandHome(path)) };
}

function fromUrl(url: string, origin: string): StoreSelection {
  if (!/^postgres(?:ql)?:\/\//iu.test(url)) {
    throw new UsageError(`${origin} must be a postgres:// or postgresql:// URL`);
  }
  return { kind: 'postgres', url };
}

/**
 * Resolves the store from the flags, then the environment. A flag always beats the
 * environment; giving both flags, or (without flags) setting both variables, is a usage error
 * rather than a silent preference.
 *
 * @throws UsageError when no store is selected or the selection is ambiguous.
 * @example
 * ```ts
 * selectStore({ store: 'app.sqlite' }); // { kind: 'sqlite', path: '/cwd/app.sqlite' }
 * selectStore({}, { SESSION_CHECKPOINT_DATABASE_URL: 'postgres://u@db/x' }); // { kind: 'postgres', ... }
 * ```
 */
export function selectStore(flags: StoreFlagValues, env: NodeJS.ProcessEnv = process.env): StoreSelection {
  const { store, 'database-url': url } = flags;
  if (store !== undefined && url !== undefined) {
    throw new UsageError('--store and --database-url cannot be used together');
  }
  if (store !== undefined) return fromPath(store, '--store');
  if (url !== undefined) return fromUrl(url, '--database-url');
  const envStore = env[STORE_ENV] || undefined;
  const envUrl = env[DATABASE_URL_ENV] || undefined;
  if (envStore !== undefined && envUrl !== undefined) {
    throw new UsageError(`${STORE_ENV} and ${DATABASE_URL_ENV} are both set; pick one with --store or --database-url`);
  }
  if (envStore !== undefined) return fromPath(envStore, STORE_ENV);
  if (envUrl !== undefined) return fromUrl(envUrl, DATABASE_URL_ENV);
  throw new UsageError(`one of --store or --database-url is required (or set ${STORE_ENV} or ${DATABASE_URL_ENV})`);
}

/**
 * How a selection is shown in results: the resolved store path, or the URL without its password.
 *
 * @example
 * ```ts
 * describeStore({ kind: 'postgres', url: 'postgres://u:secret@db/x' }); // 'postgres://u:***@db/x'
 * ```
 */
export function describeStore(selection: StoreSelection): string {
  if (selection.kind === 'sqlite') return selection.path;
  try {
    const url = new URL(selection.url);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return selection.url.replace(/\/\/([^:/@]*):[^@]*@/u, '//$1:***@');
  }
}
