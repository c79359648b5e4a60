import { Flags } from '../flags/flag-builders.js';
import { importBundle } from '../actions/import-bundle.js';
import { BaseCommand } from '../base-command.js';
import { applyFlag, namespaceFlag } from '../flags/common-flags.js';

/** `import`: load a bundle; a dry run unless `--apply`. */
export default class Import extends BaseCommand<typeof Import> {
  static override description = [
    'Import a bundle file (at most 32 MiB, 1000 checkpoints, 16 MiB of payload), keeping ids, created_at and hashes.',
    'Without --apply nothing is written and the plan is shown. Checkpoints already present unchanged are reported as unchanged, so re-importing is a no-op; a differing checkpoint with the same id, or a taken source_ref, is a conflict and nothing is imported.',
    'The store is created if it is missing, but only once the bundle has been read and validated: a failed import creates nothing.',
    '--input - reads standard input (same 32 MiB cap); FIFOs, sockets and devices are refused.',
  ].join('\n');
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --input backup/all.json',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --input backup/all.json --apply',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --input backup/all.json --namespace agent --apply',
  ];
  static override flags = {
    apply: applyFlag('Write the checkpoints; without it the command is a dry run.'),
    input: Flags.string({ description: 'Bundle file to read (a regular file); - reads standard input.', required: true }),
    namespace: namespaceFlag({ optional: true, description: 'Only import the checkpoints of this namespace. Default is every checkpoint of the bundle.' }),
  };
  static override summary = 'Import checkpoints from a JSON bundle (dry-run unless --apply).';

  /** `{ dry_run, inserted, unchanged }`. */
  async run(): Promise<Record<string, unknown>> {
    return importBundle(this.context());
  }
}
