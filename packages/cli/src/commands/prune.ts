import { Flags } from '../flags/flag-builders.js';
import { pruneCheckpoints } from '../actions/prune-checkpoints.js';
import { BaseCommand } from '../base-command.js';
import { applyFlag, integerFlag, namespaceFlag } from '../flags/common-flags.js';

/** `prune`: retention by count and/or age; a dry run unless `--apply`. */
export default class Prune extends BaseCommand<typeof Prune> {
  static override description = [
    'Select old checkpoints by count (--keep-latest N per session) and/or age (--older-than TIMESTAMP); a checkpoint is selected when it matches every criterion given.',
    'Without --apply nothing is deleted and the selected ids are shown.',
  ].join('\n');
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --keep-latest 50',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --older-than 2026-01-01T00:00:00Z --apply',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --session-id sess-1 --keep-latest 1 --apply',
  ];
  static override flags = {
    apply: applyFlag('Delete the selected checkpoints; without it the command is a dry run.'),
    'keep-latest': integerFlag({ description: 'Keep the newest N checkpoints of each session.' }),
    namespace: namespaceFlag(),
    'older-than': Flags.string({ description: 'Select checkpoints created before this RFC 3339 timestamp.' }),
    'session-id': Flags.string({ description: 'Only this session. Default is every session.' }),
  };
  static override summary = 'Delete old checkpoints (dry-run unless --apply).';

  /** `{ dry_run, selected, deleted }`. */
  async run(): Promise<Record<string, unknown>> {
    return pruneCheckpoints(this.context());
  }
}
