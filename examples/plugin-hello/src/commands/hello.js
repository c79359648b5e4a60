// The host CLI resolves this import to its own copy (docs/plugins.md), so the plugin ships none.
import { BaseCommand, namespaceFlag } from '@session-checkpoint/cli/plugin';

/**
 * `hello`: greets and counts. BaseCommand gives the store flags (`--store`, `--database-url` and
 * their environment variables), opening and closing the store, JSON output and the error mapping.
 */
export default class Hello extends BaseCommand {
  static description = 'Say hello and count the sessions and checkpoints of a namespace (an example plugin command).';
  static summary = 'Say hello with store counts.';
  static examples = ['<%= config.bin %> <%= command.id %> --store app.sqlite', '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent'];
  static flags = { namespace: namespaceFlag() };

  /** Printed as `{"ok": true, "result": {greeting, store, namespace, sessions, checkpoints}}`. */
  async run() {
    const store = await this.openStore();
    const sessions = await store.sessions({ namespace: this.flags.namespace });
    return {
      greeting: 'Hello from session-checkpoint-plugin-hello',
      store: this.storeLocation(),
      namespace: this.flags.namespace,
      sessions: sessions.length,
      checkpoints: sessions.reduce((total, session) => total + session.count, 0),
    };
  }
}
