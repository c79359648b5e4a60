import { Flags } from '@oclif/core';
import { DATABASE_URL_ENV, STORE_ENV } from '../store/store-selection.js';

/**
 * `--store` and `--database-url`, the base flags of every command built on BaseCommand.
 * The environment fallback is resolved by `selectStore`, not by oclif, so that a flag of one
 * kind beats a variable of the other kind instead of colliding with it.
 */
export const storeFlags = {
  'database-url': Flags.string({
    description: `PostgreSQL connection URL (postgres://user@host:5432/db). Default is $${DATABASE_URL_ENV}.`,
    helpGroup: 'STORE',
  }),
  store: Flags.string({
    description: `Path of the SQLite store file. Default is $${STORE_ENV}.`,
    helpGroup: 'STORE',
  }),
};
