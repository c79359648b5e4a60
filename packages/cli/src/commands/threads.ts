import { defineCommand } from '../command/define-command.js';
import { FROM_FLAGS, namespaceFlag } from '../command/flags.js';
import { officialLocation, withOfficial } from '../store/official-location.js';

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
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace chat',
    { description: "An official saver's store, read where it is (unverified):", command: '<%= config.bin %> <%= command.id %> --from sqlite:checkpoints.db' },
  ],
  flags: { namespace: namespaceFlag("Store namespace. Default: each family's default namespace."), ...FROM_FLAGS },
  async action({ flags, openStore }) {
    const location = officialLocation(flags);
    if (location !== undefined) return withOfficial(location, flags.schema, (lib, store) => lib.officialThreads(store));
    const inspect = await import('../inspect/index.js');
    const store = await openStore();
    return inspect.listThreads(store, flags.namespace === undefined ? {} : { namespace: flags.namespace });
  },
});
