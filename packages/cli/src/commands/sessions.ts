import { listSessions } from '../actions/list-sessions.js';
import { BaseCommand } from '../base-command.js';
import { namespaceFlag } from '../flags/common-flags.js';

/** `sessions`: every session of a namespace with its size and newest checkpoint. */
export default class Sessions extends BaseCommand<typeof Sessions> {
  static override description = 'List the sessions of a namespace, most recently active first, with their checkpoint count and newest checkpoint.';
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent',
  ];
  static override flags = {
    namespace: namespaceFlag(),
  };
  static override summary = 'List sessions of a namespace.';

  /** `[{ session_id, count, latest_id, latest_created_at }]`. */
  async run(): Promise<Record<string, unknown>[]> {
    return listSessions(this.context());
  }
}
