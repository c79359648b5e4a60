import { defineCommand } from '../command/define-command.js';
import { namespaceFlag } from '../command/flags.js';
import { statsJson } from '../output/upkeep.js';

/** `stats`: `{ namespace, totals, namespaces: [{ ..., sessions: [...] }], pins, storage }`, largest first. */
export default defineCommand({
  id: 'stats',
  summary: 'Show what takes the space, per namespace and per thread or session.',
  description: [
    'Rows, payload bytes, oldest and newest write per namespace and per session (a LangGraph thread, an Agents session, a chat, a plain session), largest first, with the pins and the size of the SQLite file or the PostgreSQL relations.',
    'Rows are counted, not verified.',
  ].join('\n'),
  examples: ['<%= config.bin %> <%= command.id %> --store app.sqlite', '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace langgraph'],
  flags: { namespace: namespaceFlag('Only this namespace. Default is the whole store.') },
  async action({ flags, openStore }) {
    const store = await openStore({ readOnly: true });
    const options = flags.namespace === undefined ? {} : { namespace: flags.namespace };
    return statsJson(await store.stats(options), await store.pins(options));
  },
});
