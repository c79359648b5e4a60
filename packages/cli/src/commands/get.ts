import { defineCommand } from '../command/define-command.js';
import { flag, namespaceFlag } from '../command/flags.js';
import { checkpointJson, sealStatus } from '../output/records.js';

export default defineCommand({
  id: 'get',
  summary: 'Return one checkpoint including its payload.',
  description: 'Print one checkpoint with its payload, exactly as stored. The row is verified first; a tampered row is refused.',
  examples: ['<%= config.bin %> <%= command.id %> --store app.sqlite --id 7', '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --id 7'],
  flags: {
    id: flag.integer({ description: 'Checkpoint id.', required: true }),
    namespace: namespaceFlag(),
  },
  async action({ flags, openStore }) {
    const store = await openStore();
    return checkpointJson(await store.get(flags.id, { namespace: flags.namespace }), { seal: sealStatus(store) });
  },
});
