import { defineCommand } from '../command/define-command.js';
import { namespaceFlag } from '../command/flags.js';
import { sessionJson } from '../output/records.js';

/** `sessions`: `[{ session_id, count, latest_id, latest_created_at }]`, most recently active first. */
export default defineCommand({
  id: 'sessions',
  summary: 'List sessions of a namespace.',
  description: 'List the sessions of a namespace, most recently active first, with their checkpoint count and newest checkpoint.',
  examples: ['<%= config.bin %> <%= command.id %> --store app.sqlite', '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent'],
  flags: { namespace: namespaceFlag() },
  async action({ flags, openStore }) {
    const store = await openStore();
    return (await store.sessions({ namespace: flags.namespace })).map(sessionJson);
  },
});
