import { defineCommand } from '../command/define-command.js';
import { flag, FROM_FLAGS, namespaceFlag } from '../command/flags.js';
import { UsageError } from '../errors/usage-error.js';
import { officialLibrary, officialLocation } from '../store/official-location.js';

/**
 * `inspect`: serves the read-only viewer (src/inspect/) until SIGINT or SIGTERM. The viewer prints
 * `{"ok": true, "result": {"url": ...}}` as soon as it listens; the action returns nothing, so the
 * lifecycle prints nothing more. The viewer's modules load only here.
 */
export default defineCommand({
  id: 'inspect',
  summary: 'Browse the threads and states of a store in a local read-only viewer.',
  description: [
    'Serve a read-only viewer of the store on 127.0.0.1 and open it in the browser: the threads and sessions, a timeline of each (the nodes that ran, message previews, waiting interrupts, forks drawn with the original line as main), what a step changed above its verified state (messages as role and text; LangGraph internals behind a toggle), the diff to its parent or any other step, the writes of each step, a filter by changed JSON path, a chart of state size per step, and a redacted debug bundle to download.',
    'Prints {"ok": true, "result": {"url": ...}} at once, then serves until SIGINT or SIGTERM. Every request needs the random token of the printed URL and one Host header naming 127.0.0.1 or localhost, with a path as its target; the page loads nothing from the network.',
  ].join('\n'),
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace langgraph --port 8765 --no-open',
    { description: "A PostgresSaver database, viewed where it is (every step unverified):", command: '<%= config.bin %> <%= command.id %> --from postgres://user@host:5432/db --schema public' },
  ],
  flags: {
    namespace: namespaceFlag("Only this store namespace. Default is each family's default namespace (langgraph, openai-agents, default)."),
    'no-open': flag.boolean({ description: 'Do not open the system browser; just print the URL.' }),
    port: flag.integer({ default: 0, description: 'Port on 127.0.0.1. Default is 0: a random free port.' }),
    ...FROM_FLAGS,
  },
  async action({ flags, openStore }) {
    const { port } = flags;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be from 0 to 65535 (0 picks a free port)');
    const location = officialLocation(flags);
    const { serveInspector } = await import('../inspect/serve.js');
    if (location !== undefined) {
      const official = await (await officialLibrary()).openOfficialStore(location, flags.schema === undefined ? {} : { schema: flags.schema });
      try {
        const { officialSource } = await import('../inspect/official-source.js');
        await serveInspector({ source: officialSource(official), port, open: !flags['no-open'] });
      } finally {
        await official.close();
      }
      return undefined;
    }
    const store = await openStore({ readOnly: true });
    await serveInspector({ store, namespace: flags.namespace, port, open: !flags['no-open'] });
    return undefined;
  },
});
