import { Flags } from '@oclif/core';
import { BaseCommand } from '../base-command.js';
import { namespaceFlag } from '../flags/common-flags.js';
import { stderrProgress } from '../progress/stderr-progress.js';
import { expandHome } from '../input/expand-home.js';

/** `export`: write a namespace (or the whole store) to a bundle file. */
export default class Export extends BaseCommand<typeof Export> {
  static override description = [
    'Export verified checkpoints, ordered by id, to a bundle file (ellmos.session-checkpoint-export.v1, owner-only, written atomically).',
    'Missing parent directories are created; the store file itself is never overwritten. One bad row fails the export and no file is written.',
  ].join('\n');
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --output backup/all.json',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --output agent.json',
  ];
  static override flags = {
    namespace: namespaceFlag({ optional: true, description: 'Only this namespace. Default is every namespace.' }),
    output: Flags.string({ description: 'Bundle file to write (replaced if it exists).', required: true }),
  };
  static override summary = 'Export checkpoints to a local JSON bundle file.';

  /** `{ schema, output, checkpoints }`. */
  async run(): Promise<Record<string, unknown>> {
    const { flags } = this;
    const store = await this.openStore();
    const { writeBundleFile } = await import('@session-checkpoint/bundle');
    const onProgress = stderrProgress();
    const selection = this.storeSelection;
    const result = await writeBundleFile(store, expandHome(flags.output), {
      ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
      ...(selection.kind === 'sqlite' ? { storePath: selection.path } : {}),
      ...(onProgress === undefined ? {} : { onProgress }),
    });
    return { schema: result.schema, output: result.output, checkpoints: result.checkpoints };
  }
}
