import { defineCommand } from '../command/define-command.js';
import { flag, namespaceFlag } from '../command/flags.js';
import { checkpointJson, sealStatus } from '../output/records.js';

export default defineCommand({
  id: 'list',
  summary: 'List checkpoint metadata without payloads.',
  description:
    'List checkpoints of a namespace, newest first (created_at, then id, descending), without payloads. Every row is verified; one bad row fails the page and the error names every bad id.',
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --limit 50 --offset 50',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --session-id sess-1',
  ],
  flags: {
    limit: flag.integer({ default: 20, description: 'Page size, 1 to 1000.' }),
    namespace: namespaceFlag(),
    offset: flag.integer({ default: 0, description: 'Checkpoints to skip.' }),
    'session-id': flag.string({ description: 'Only this session. Default is every session.' }),
  },
  async action({ flags, openStore }) {
    const store = await openStore();
    const sessionId = flags['session-id'];
    const page = await store.list({ namespace: flags.namespace, limit: flags.limit, offset: flags.offset, ...(sessionId === undefined ? {} : { sessionId }) });
    return page.map((cp) => checkpointJson(cp, { payload: false, seal: sealStatus(store) }));
  },
});
