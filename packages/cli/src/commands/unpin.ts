import { defineCommand } from '../command/define-command.js';
import { flag, namespaceFlag } from '../command/flags.js';

/** `unpin`: `{ namespace, session_id, pinned: false, was_pinned }`. */
export default defineCommand({
  id: 'unpin',
  summary: 'Let idle expiry delete a pinned thread or session again.',
  description: 'Remove the pin of a session (see pin).',
  examples: ['<%= config.bin %> <%= command.id %> --store app.sqlite --namespace langgraph --session-id thread-7'],
  flags: { namespace: namespaceFlag(), 'session-id': flag.string({ description: 'The session (thread) to unpin.', required: true }) },
  async action({ flags, openStore }) {
    const store = await openStore();
    const was = await store.unpin(flags['session-id'], { namespace: flags.namespace });
    return { namespace: flags.namespace, session_id: flags['session-id'], pinned: false, was_pinned: was };
  },
});
