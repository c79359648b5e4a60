import { BaseCommand } from '../base-command.js';
import { integerFlag, namespaceFlag } from '../flags/common-flags.js';
import { getCheckpoint } from '../actions/get-checkpoint.js';

/** `get`: one verified checkpoint with its payload. */
export default class Get extends BaseCommand<typeof Get> {
  static override description =
    'Print one checkpoint with its payload, exactly as stored. The row is verified first; a tampered row is refused.';
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --id 7',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --id 7',
  ];
  static override flags = {
    id: integerFlag({ description: 'Checkpoint id.', required: true }),
    namespace: namespaceFlag(),
  };
  static override summary = 'Return one checkpoint including its payload.';

  /** The checkpoint with payload. */
  async run(): Promise<Record<string, unknown>> {
    return getCheckpoint(this.context());
  }
}
