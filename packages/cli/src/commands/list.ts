import { Flags } from '../flags/flag-builders.js';
import { BaseCommand } from '../base-command.js';
import { integerFlag, namespaceFlag } from '../flags/common-flags.js';
import { listCheckpoints } from '../actions/list-checkpoints.js';

/** `list`: a page of a namespace, newest first, without payloads. */
export default class List extends BaseCommand<typeof List> {
  static override description =
    'List checkpoints of a namespace, newest first (created_at, then id, descending), without payloads. Every row is verified; one bad row fails the page and the error names every bad id.';
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --limit 50 --offset 50',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --session-id sess-1',
  ];
  static override flags = {
    limit: integerFlag({ default: 20, description: 'Page size, 1 to 1000.' }),
    namespace: namespaceFlag(),
    offset: integerFlag({ default: 0, description: 'Checkpoints to skip.' }),
    'session-id': Flags.string({ description: 'Only this session. Default is every session.' }),
  };
  static override summary = 'List checkpoint metadata without payloads.';

  /** Checkpoints without payload. */
  async run(): Promise<Record<string, unknown>[]> {
    return listCheckpoints(this.context());
  }
}
