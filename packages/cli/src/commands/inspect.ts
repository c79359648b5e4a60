import { Flags } from '../flags/flag-builders.js';
import { inspectStore } from '../actions/inspect-store.js';
import { BaseCommand } from '../base-command.js';
import { integerFlag, namespaceFlag } from '../flags/common-flags.js';

/** `inspect`: a local, read-only viewer of the store's threads in the browser. */
export default class Inspect extends BaseCommand<typeof Inspect> {
  static override description = [
    'Serve a read-only viewer of the store on 127.0.0.1 and open it in the browser: the threads and sessions, a timeline of each (forks drawn), the verified state at a step, the diff to its parent or any other step, the writes of each step, a filter by changed JSON path, a chart of state size per step, and a redacted debug bundle to download.',
    'Prints {"ok": true, "result": {"url": ...}} at once, then serves until SIGINT or SIGTERM. Every request needs the random token of the printed URL and a Host header naming 127.0.0.1 or localhost; the page loads nothing from the network.',
  ].join('\n');
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace langgraph --port 8765 --no-open',
  ];
  static override flags = {
    namespace: namespaceFlag({ optional: true, description: "Only this store namespace. Default is each family's default namespace (langgraph, openai-agents, default)." }),
    'no-open': Flags.boolean({ default: false, description: 'Do not open the system browser; just print the URL.' }),
    port: integerFlag({ default: 0, description: 'Port on 127.0.0.1. Default is 0: a random free port.' }),
  };
  static override summary = 'Browse the threads and states of a store in a local read-only viewer.';

  /** Nothing: the URL document is printed while the server runs. */
  async run(): Promise<undefined> {
    return inspectStore(this.context());
  }
}
