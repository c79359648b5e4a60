import { BaseCommand, namespaceFlag } from '@session-checkpoint/cli';

/**
 * `hello`: greets and counts. Everything a plugin command needs comes from BaseCommand: the
 * store flags (`--store`, `--database-url` and their environment variables), opening the store
 * without creating it, closing it, JSON output and the error mapping.
 */
export default class Hello extends BaseCommand<typeof Hello> {
  static override description = 'Say hello and count the sessions and checkpoints of a namespace (an example plugin command).';
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent',
  ];
  static override flags = {
    namespace: namespaceFlag(),
  };
  static override summary = 'Say hello with store counts.';

  /** `{ greeting, store, namespace, sessions, checkpoints }`, printed as `{"ok": true, "result": ...}`. */
  async run(): Promise<Record<string, unknown>> {
    const store = await this.openStore();
    const sessions = await store.sessions({ namespace: this.flags.namespace });
    return {
      greeting: 'Hello from @session-checkpoint/plugin-hello',
      store: this.storeLocation(),
      namespace: this.flags.namespace,
      sessions: sessions.length,
      checkpoints: sessions.reduce((total, session) => total + session.count, 0),
    };
  }
}
