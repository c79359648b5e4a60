import { Flags } from '../flags/flag-builders.js';
import { sessionHistory } from '../actions/session-history.js';
import { BaseCommand } from '../base-command.js';
import { integerFlag, namespaceFlag } from '../flags/common-flags.js';

/** `history`: a session's checkpoints, newest first. */
export default class History extends BaseCommand<typeof History> {
  static override description =
    'List the checkpoints of one session, newest first, without payloads (use get for a payload). Same as list --session-id.';
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --session-id sess-1',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --session-id sess-1 --limit 5',
  ];
  static override flags = {
    limit: integerFlag({ default: 20, description: 'Page size, 1 to 1000.' }),
    namespace: namespaceFlag(),
    offset: integerFlag({ default: 0, description: 'Checkpoints to skip.' }),
    'session-id': Flags.string({ description: 'The session.', required: true }),
  };
  static override summary = 'List the checkpoints of one session.';

  /** Checkpoints without payload. */
  async run(): Promise<Record<string, unknown>[]> {
    return sessionHistory(this.context());
  }
}
