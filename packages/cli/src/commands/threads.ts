import { defineCommand } from '../command/define-command.js';
import { namespaceFlag } from '../command/flags.js';

/**
 * `threads`: the LangGraph threads, OpenAI Agents sessions and plain checkpoint sessions of a
 * store, most recently active first. The readers load on use, so other commands' start-up does
 * not grow.
 */
export default defineCommand({
  id: 'threads',
  summary: 'List threads and sessions of every family.',
  description:
    "List the LangGraph threads, OpenAI Agents sessions and plain checkpoint sessions of a store, most recently active first: family, id, checkpoint namespaces, number of checkpoints (or items), bytes, first and latest time. Without --namespace, each family's default namespace (langgraph, openai-agents, default).",
  examples: ['<%= config.bin %> <%= command.id %> --store app.sqlite', '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace chat'],
  flags: { namespace: namespaceFlag("Store namespace. Default: each family's default namespace.") },
  async action({ flags, openStore }) {
    const inspect = await import('../inspect/index.js');
    const store = await openStore();
    return inspect.listThreads(store, flags.namespace === undefined ? {} : { namespace: flags.namespace });
  },
});
