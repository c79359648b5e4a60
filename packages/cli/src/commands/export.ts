import { Flags } from '../flags/flag-builders.js';
import { exportBundle } from '../actions/export-bundle.js';
import { BaseCommand } from '../base-command.js';
import { namespaceFlag } from '../flags/common-flags.js';

/** `export`: write a namespace (or the whole store) to a bundle file. */
export default class Export extends BaseCommand<typeof Export> {
  static override description = [
    'Export verified checkpoints, ordered by id, to a bundle file (ellmos.session-checkpoint-export.v1, owner-only, written atomically).',
    'Missing parent directories are created. Only a regular file is replaced: an existing directory, device, FIFO or socket, a symlink (the last component), and the store with its -wal/-shm/-journal files are refused before the store is opened.',
    'One bad row fails the export and no file is written.',
  ].join('\n');
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --output backup/all.json',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --output agent.json',
  ];
  static override flags = {
    namespace: namespaceFlag({ optional: true, description: 'Only this namespace. Default is every namespace.' }),
    output: Flags.string({ description: 'Bundle file to write (a regular file, replaced if it exists; never a symlink).', required: true }),
  };
  static override summary = 'Export checkpoints to a local JSON bundle file.';

  /** `{ schema, output, checkpoints }`. */
  async run(): Promise<Record<string, unknown>> {
    return exportBundle(this.context());
  }
}
