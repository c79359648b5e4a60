import { listThreads } from '../actions/list-threads.js';
import { BaseCommand } from '../base-command.js';
import { namespaceFlag } from '../flags/common-flags.js';

/** `threads`: the threads and sessions of a store, of every family. */
export default class Threads extends BaseCommand<typeof Threads> {
  static override description =
    'List the LangGraph threads, OpenAI Agents sessions and plain checkpoint sessions of a store, most recently active first: family, id, checkpoint namespaces, number of checkpoints (or items), bytes, first and latest time. Without --namespace, each family\'s default namespace (langgraph, openai-agents, default).';
  static override examples = ['<%= config.bin %> <%= command.id %> --store app.sqlite', '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace chat'];
  static override flags = {
    namespace: namespaceFlag({ optional: true, description: "Store namespace. Default: each family's default namespace." }),
  };
  static override summary = 'List threads and sessions of every family.';

  /** `[{ family, namespace, thread_id, checkpoint_ns, count, bytes, first_created_at, latest_created_at }]`. */
  async run(): Promise<unknown> {
    return listThreads(this.context());
  }
}
