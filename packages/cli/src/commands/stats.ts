import { defineCommand } from '../command/define-command.js';
import { FROM_FLAGS, namespaceFlag } from '../command/flags.js';
import { statsJson } from '../output/upkeep.js';
import { officialLocation, withOfficial } from '../store/official-location.js';

/**
 * `stats`: `{ namespace, totals, namespaces: [{ ..., sessions: [...] }], pins, storage }`, largest first.
 * With `--from`/`--source`, an official saver's store: `{ source, location, schema, threads, totals }`
 * with each thread's estimated size in our layout (`officialStoreStats`).
 */
export default defineCommand({
  id: 'stats',
  summary: 'Show what takes the space, per namespace and per thread or session.',
  description: [
    'Rows, payload bytes, oldest and newest write per namespace and per session (a LangGraph thread, an Agents session, a chat, a plain session), largest first, with the pins and the size of the SQLite file or the PostgreSQL relations.',
    'Rows are counted, not verified.',
    "With --from (or --source) sqlite:PATH or postgres://URL, an official LangGraph saver's store, read-only: per thread its checkpoints, writes, bytes as stored, oldest and newest checkpoint, and an estimate of its size once migrated into our layout.",
  ].join('\n'),
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace langgraph',
    { description: "An official saver's store, before moving it in:", command: '<%= config.bin %> <%= command.id %> --from sqlite:checkpoints.db' },
  ],
  flags: { namespace: namespaceFlag('Only this namespace. Default is the whole store.'), ...FROM_FLAGS },
  async action({ flags, openStore }) {
    const location = officialLocation(flags);
    if (location !== undefined) return withOfficial(location, flags.schema, (lib, store) => lib.officialStoreStats(store));
    const store = await openStore({ readOnly: true });
    const options = flags.namespace === undefined ? {} : { namespace: flags.namespace };
    return statsJson(await store.stats(options), await store.pins(options));
  },
});
