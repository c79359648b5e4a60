import { DEFAULT_LIMITS } from '@session-checkpoint/core';
import { defineCommand } from '../command/define-command.js';
import { applyFlag, flag, namespaceFlag } from '../command/flags.js';
import { expandHome } from '../input/expand-home.js';
import { readInputText } from '../input/read-input-text.js';
import { stderrProgress } from '../progress/stderr-progress.js';

/**
 * `import`: `{ dry_run, inserted, unchanged }`. Unlike the reference, the input is read and
 * validated before the store is opened (and perhaps created): a missing or bad bundle must not
 * leave a new empty store behind.
 */
export default defineCommand({
  id: 'import',
  summary: 'Import checkpoints from a JSON bundle (dry-run unless --apply).',
  description: [
    'Import a bundle file (at most 32 MiB, 1000 checkpoints, 16 MiB of payload), keeping ids, created_at and hashes.',
    'Without --apply nothing is written and the plan is shown. Checkpoints already present unchanged are reported as unchanged, so re-importing is a no-op; a differing checkpoint with the same id, or a taken source_ref, is a conflict and nothing is imported.',
    'The store is created if it is missing, but only once the bundle has been read and validated: a failed import creates nothing.',
    '--input - reads standard input (same 32 MiB cap); FIFOs, sockets and devices are refused.',
  ].join('\n'),
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --input backup/all.json',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --input backup/all.json --apply',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --input backup/all.json --namespace agent --apply',
  ],
  flags: {
    apply: applyFlag('Write the checkpoints; without it the command is a dry run.'),
    input: flag.string({ description: 'Bundle file to read (a regular file); - reads standard input.', required: true }),
    namespace: namespaceFlag('Only import the checkpoints of this namespace. Default is every checkpoint of the bundle.'),
  },
  async action({ flags, openStore }) {
    const bundle = await import('@session-checkpoint/bundle');
    const text = await readInputText(expandHome(flags.input), { maxBytes: DEFAULT_LIMITS.maxImportFileBytes, label: 'input' });
    const onProgress = stderrProgress();
    const parsed = bundle.parseBundle(text, DEFAULT_LIMITS, onProgress ? { onProgress } : {});
    const store = await openStore({ create: true, write: true });
    const result = await bundle.importBundle(store, parsed, {
      apply: flags.apply,
      ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
      ...(onProgress === undefined ? {} : { onProgress }),
    });
    return { dry_run: result.dryRun, inserted: result.inserted, unchanged: result.unchanged };
  },
});
