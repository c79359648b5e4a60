import { resolve } from 'node:path';
import { DEFAULT_LIMITS, loadKeyFile } from '@session-checkpoint/core';
import { defineCommand } from '../command/define-command.js';
import { applyFlag, flag, namespaceFlag } from '../command/flags.js';
import { UsageError } from '../errors/usage-error.js';
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
    'A sealed bundle (exported with --key-file) imports only into a store opened with keys: every seal, head and chain is checked first, and a bundle edited in transit is refused with nothing written. Into a store with other keys, its rows are re-sealed under the store\'s active key only when --source-key-file gives the bundle\'s keys. --require-sealed refuses a plain bundle.',
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
    'source-key-file': flag.string({ description: "A sealed bundle under other keys than the store's: the key file it was sealed with; its rows are re-sealed under the store's active key." }),
    'require-sealed': flag.boolean({ description: 'Refuse a plain bundle (its rows would be sealed as new checkpoints, trusting the file). Needs --key-file.' }),
  },
  async action({ flags, openStore, storeKeys }) {
    const bundle = await import('@session-checkpoint/bundle');
    const sourceKeyFile = flags['source-key-file'];
    if ((sourceKeyFile !== undefined || flags['require-sealed']) && (await storeKeys()) === undefined) {
      throw new UsageError(`${sourceKeyFile === undefined ? '--require-sealed' : '--source-key-file'} needs the store's keys (--key-file or SESSION_CHECKPOINT_KEY_FILE)`);
    }
    if (sourceKeyFile === '') throw new UsageError('--source-key-file must not be empty');
    const sourceKeys = sourceKeyFile === undefined ? undefined : await loadKeyFile(resolve(expandHome(sourceKeyFile)));
    const text = await readInputText(expandHome(flags.input), { maxBytes: DEFAULT_LIMITS.maxImportFileBytes, label: 'input' });
    const onProgress = stderrProgress();
    const parsed = bundle.parseBundle(text, DEFAULT_LIMITS, onProgress ? { onProgress } : {});
    const store = await openStore({ create: true, write: true });
    const result = await bundle.importBundle(store, parsed, {
      apply: flags.apply,
      ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
      ...(sourceKeys === undefined ? {} : { sourceKeys }),
      ...(flags['require-sealed'] ? { requireSealed: true } : {}),
      ...(onProgress === undefined ? {} : { onProgress }),
    });
    return { dry_run: result.dryRun, inserted: result.inserted, unchanged: result.unchanged };
  },
});
