import { Flags } from '../flags/flag-builders.js';
import { deleteCheckpoint } from '../actions/delete-checkpoint.js';
import { BaseCommand } from '../base-command.js';
import { applyFlag, integerFlag, namespaceFlag } from '../flags/common-flags.js';

/** `delete`: remove one checkpoint; a dry run unless `--apply`. */
export default class Delete extends BaseCommand<typeof Delete> {
  static override description = [
    'Delete one checkpoint. Without --apply nothing is deleted and the checkpoint that would go is shown.',
    'A row that fails verification can only be deleted with --apply --force; its content is then not shown (checkpoint is null) and integrity_failure says why.',
  ].join('\n');
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --id 7',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --id 7 --apply',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --id 7 --apply --force',
  ];
  static override flags = {
    apply: applyFlag('Delete; without it the command is a dry run.'),
    force: Flags.boolean({ default: false, description: 'Also delete a row that fails integrity verification.' }),
    id: integerFlag({ description: 'Checkpoint id.', required: true }),
    namespace: namespaceFlag(),
  };
  static override summary = 'Delete one checkpoint (dry-run unless --apply).';

  /** `{ dry_run, checkpoint, deleted }` plus `integrity_failure` for a forced bad row. */
  async run(): Promise<Record<string, unknown>> {
    return deleteCheckpoint(this.context());
  }
}
