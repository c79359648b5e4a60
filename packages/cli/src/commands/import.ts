import { Flags } from '@oclif/core';
import { BaseCommand } from '../base-command.js';
import { applyFlag, namespaceFlag } from '../flags/common-flags.js';
import { stderrProgress } from '../progress/stderr-progress.js';
import { expandHome } from '../input/expand-home.js';

/** `import`: load a bundle; a dry run unless `--apply`. */
export default class Import extends BaseCommand<typeof Import> {
  static override description = [
    'Import a bundle file (at most 32 MiB, 1000 checkpoints, 16 MiB of payload), keeping ids, created_at and hashes.',
    'Without --apply nothing is written and the plan is shown. Checkpoints already present unchanged are reported as unchanged, so re-importing is a no-op; a differing checkpoint with the same id, or a taken source_ref, is a conflict and nothing is imported.',
    'The store is created if it is missing.',
  ].join('\n');
  static override examples = [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --input backup/all.json',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --input backup/all.json --apply',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --input backup/all.json --namespace agent --apply',
  ];
  static override flags = {
    apply: applyFlag('Write the checkpoints; without it the command is a dry run.'),
    input: Flags.string({ description: 'Bundle file to read.', required: true }),
    namespace: namespaceFlag({ optional: true, description: 'Only import the checkpoints of this namespace. Default is every checkpoint of the bundle.' }),
  };
  static override summary = 'Import checkpoints from a JSON bundle (dry-run unless --apply).';

  /** `{ dry_run, inserted, unchanged }`. */
  async run(): Promise<Record<string, unknown>> {
    const { flags } = this;
    // As the reference: the store is opened (and created) before the input is read.
    const store = await this.openStore({ create: true });
    const { importBundle, readBundleFile } = await import('@session-checkpoint/bundle');
    const text = await readBundleFile(expandHome(flags.input), store.limits);
    const onProgress = stderrProgress();
    const result = await importBundle(store, text, {
      apply: flags.apply,
      ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
      ...(onProgress === undefined ? {} : { onProgress }),
    });
    return { dry_run: result.dryRun, inserted: result.inserted, unchanged: result.unchanged };
  }
}
