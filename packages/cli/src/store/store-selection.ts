import { resolve } from 'node:path';
import { expandHome } from '../input/expand-home.js';
import { UsageError } from '../errors/usage-error.js';

/** Environment variable naming the SQLite store file when `--store` is not given. */
export const STORE_ENV = 'SESSION_CHECKPOINT_STORE';
/** Environment variable holding the PostgreSQL URL when `--database-url` is not given. */
export const DATABASE_URL_ENV = 'SESSION_CHECKPOINT_DATABASE_URL';
/** Environment variable naming the PostgreSQL schema when `--schema` is not given. */
export const SCHEMA_ENV = 'SESSION_CHECKPOINT_SCHEMA';
/** Environment variable naming the key file of a sealed store when `--key-file` is not given. */
export const KEY_FILE_ENV = 'SESSION_CHECKPOINT_KEY_FILE';
/** Environment variable holding the PostgreSQL connect timeout in seconds when `--connect-timeout` is not given. */
export const CONNECT_TIMEOUT_ENV = 'SESSION_CHECKPOINT_CONNECT_TIMEOUT';

/** Which store a command works on. */
export type StoreSelection =
  | { readonly kind: 'sqlite'; /** Absolute path of the store file. */ readonly path: string }
  | {
      readonly kind: 'postgres';
      /** Connection URL, credentials included. */
      readonly url: string;
      /** Schema of the store tables; absent means the library's default (`public`). */
      readonly schema?: string;
      /** Connect timeout in ms; absent means the library's default (10 s). */
      readonly connectTimeoutMs?: number;
    };

/** The store flags as parsed. */
export interface StoreFlagValues {
  store?: string | undefined;
  'database-url'?: string | undefined;
  schema?: string | undefined;
  'connect-timeout'?: string | undefined;
  /** The key file of a sealed store (see key-selection.ts). */
  'key-file'?: string | undefined;
}

function fromPath(path: string, origin: string): StoreSelection {
  if (path === '') throw new UsageError(`${origin} must not be empty`);
  return { kind: 'sqlite', path: resolve(expandHome(path)) };
}

function fromUrl(url: string, origin: string, flags: StoreFlagValues, env: NodeJS.ProcessEnv): StoreSelection {
  if (!/^postgres(?:ql)?:\/\//iu.test(url)) {
    throw new UsageError(`${origin} must be a postgres:// or postgresql:// URL`);
  }
  const schema = flags.schema ?? (env[SCHEMA_ENV] || undefined);
  if (schema === '') throw new UsageError('--schema must not be empty');
  const timeout = flags['connect-timeout'] ?? (env[CONNECT_TIMEOUT_ENV] || undefined);
  return {
    kind: 'postgres',
    url,
    ...(schema === undefined ? {} : { schema }),
    ...(timeout === undefined ? {} : { connectTimeoutMs: timeoutMs(timeout, flags['connect-timeout'] === undefined ? CONNECT_TIMEOUT_ENV : '--connect-timeout') }),
  };
}

/** Seconds as given (`10`, `2.5`) in whole milliseconds, at least 1 ms and at most about 24 days. */
function timeoutMs(seconds: string, origin: string): number {
  const ms = /^\d+(?:\.\d+)?$/u.test(seconds) ? Math.round(Number(seconds) * 1000) : Number.NaN;
  if (!(ms >= 1 && ms <= 2 ** 31 - 1)) throw new UsageError(`${origin} must be a positive number of seconds (at most 2147483)`);
  return ms;
}

/** `--schema` and `--connect-timeout` mean nothing for a SQLite file: say so rather than ignore them. */
function refusePostgresOnly(flags: StoreFlagValues): void {
  for (const flag of ['schema', 'connect-timeout'] as const) {
    if (flags[flag] !== undefined) throw new UsageError(`--${flag} applies to PostgreSQL stores only (--database-url)`);
  }
}

/**
 * Resolves the store from the flags, then the environment. A flag always beats the
 * environment (`--schema` beats `SESSION_CHECKPOINT_SCHEMA`, `--connect-timeout` beats
 * `SESSION_CHECKPOINT_CONNECT_TIMEOUT`; both are refused with a SQLite store, their variables ignored); giving both flags, or (without flags) setting both variables, is a usage error
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
  if (store !== undefined) {
    refusePostgresOnly(flags);
    return fromPath(store, '--store');
  }
  if (url !== undefined) return fromUrl(url, '--database-url', flags, env);
  const envStore = env[STORE_ENV] || undefined;
  const envUrl = env[DATABASE_URL_ENV] || undefined;
  if (envStore !== undefined && envUrl !== undefined) {
    throw new UsageError(`${STORE_ENV} and ${DATABASE_URL_ENV} are both set; pick one with --store or --database-url`);
  }
  if (envStore !== undefined) {
    refusePostgresOnly(flags);
    return fromPath(envStore, STORE_ENV);
  }
  if (envUrl !== undefined) return fromUrl(envUrl, DATABASE_URL_ENV, flags, env);
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
