import { defineCommand } from '../command/define-command.js';
import { flag, namespaceFlag } from '../command/flags.js';
import { checkpointJson, sealStatus } from '../output/records.js';

export default defineCommand({
  id: 'history',
  summary: 'List the checkpoints of one session.',
  description: 'List the checkpoints of one session, newest first, without payloads (use get for a payload). Same as list --session-id.',
  examples: ['<%= config.bin %> <%= command.id %> --store app.sqlite --session-id sess-1', '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --session-id sess-1 --limit 5'],
  flags: {
    limit: flag.integer({ default: 20, description: 'Page size, 1 to 1000.' }),
    namespace: namespaceFlag(),
    offset: flag.integer({ default: 0, description: 'Checkpoints to skip.' }),
    'session-id': flag.string({ description: 'The session.', required: true }),
  },
  async action({ flags, openStore }) {
    const store = await openStore();
    const page = await store.history(flags['session-id'], { namespace: flags.namespace, limit: flags.limit, offset: flags.offset });
    return page.map((cp) => checkpointJson(cp, { payload: false, seal: sealStatus(store) }));
  },
});
