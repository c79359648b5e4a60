import { defineCommand } from '../command/define-command.js';
import { flag, namespaceFlag } from '../command/flags.js';

/** `pin`: `{ namespace, session_id, pinned: true, was_pinned }`. */
export default defineCommand({
  id: 'pin',
  summary: 'Keep a thread or session from idle expiry.',
  description: 'Pin a session (a LangGraph thread, an Agents session, a plain session) so that prune --idle-for never deletes it. The pin is a metadata entry of the store; the session need not exist yet. unpin removes it.',
  examples: ['<%= config.bin %> <%= command.id %> --store app.sqlite --namespace langgraph --session-id thread-7'],
  flags: { namespace: namespaceFlag(), 'session-id': flag.string({ description: 'The session (thread) to pin.', required: true }) },
  async action({ flags, openStore }) {
    const store = await openStore();
    const was = await store.pin(flags['session-id'], { namespace: flags.namespace });
    return { namespace: flags.namespace, session_id: flags['session-id'], pinned: true, was_pinned: was };
  },
});
