import { Flags } from './flag-builders.js';
import { CONNECT_TIMEOUT_ENV, DATABASE_URL_ENV, SCHEMA_ENV, STORE_ENV } from '../store/store-selection.js';

/**
 * `--store`, `--database-url`, `--schema` and `--connect-timeout`: the base flags of every command
 * built on BaseCommand.
 * The environment fallback is resolved by `selectStore`, not by oclif, so that a flag of one
 * kind beats a variable of the other kind instead of colliding with it.
 */
export const storeFlags = {
  'database-url': Flags.string({
    description: `PostgreSQL connection URL (postgres://user@host:5432/db). Default is $${DATABASE_URL_ENV}.`,
    helpGroup: 'STORE',
  }),
  'connect-timeout': Flags.string({
    description: `PostgreSQL only: seconds a connection attempt may take before failing. Default is $${CONNECT_TIMEOUT_ENV}, else 10.`,
    helpGroup: 'STORE',
  }),
  schema: Flags.string({
    description: `PostgreSQL only: schema holding the store tables (quoted: case and characters kept). Default is $${SCHEMA_ENV}, else public. Only init, create and import create it.`,
    helpGroup: 'STORE',
  }),
  store: Flags.string({
    description: `Path of the SQLite store file. Default is $${STORE_ENV}.`,
    helpGroup: 'STORE',
  }),
};
