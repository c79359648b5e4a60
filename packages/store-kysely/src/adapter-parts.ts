import type { AdapterCapabilities } from '@session-checkpoint/core';
import type { Kysely } from 'kysely';
import type { AdapterConnection } from './adapter-connection.js';
import type { CheckpointQueries } from './queries.js';
import type { CheckpointDatabase } from './schema.js';

/**
 * What the SQLite front door hands the `KyselyAdapter` constructor instead of a Kysely instance
 * (its private form, never exported from the package): SQLite templates built already (from
 * frozen text) and a way to get a Kysely instance for the per-call queries when one is first
 * needed, so that an adapter that never prunes never loads Kysely.
 */
export class PreparedAdapterParts {
  constructor(
    readonly queries: CheckpointQueries,
    readonly connection: AdapterConnection,
    readonly capabilities: Partial<AdapterCapabilities>,
    /** Compiles the per-call queries (prune, delete by ids); called at most once. */
    readonly compiler: () => Promise<Kysely<CheckpointDatabase>>,
  ) {}
}
