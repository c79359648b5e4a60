import { resolve } from 'node:path';
import { loadKeyFile } from '@session-checkpoint/core';
import { defineCommand } from '../command/define-command.js';
import { applyFlag, flag } from '../command/flags.js';
import { UsageError } from '../errors/usage-error.js';
import { expandHome } from '../input/expand-home.js';

/**
 * `rekey`: key rotation through core's `CheckpointStore.rekey`. The store is opened with the old
 * keys and the new key file's keys, the new file's active key writing; every row and head under
 * another key is re-sealed and re-encrypted under it, in batches of one transaction each. A dry
 * run unless `--apply`. A rotation killed at any point leaves every row sealed under one of the
 * keys, and running the command again goes on where it stopped.
 */
export default defineCommand({
  id: 'rekey',
  summary: 'Re-seal a sealed store under a new key (dry-run unless --apply).',
  description: [
    'Key rotation: re-seal and re-encrypt every row and head of the store that is not under the active key of --new-key-file, in batches (one transaction each). --key-file (or SESSION_CHECKPOINT_KEY_FILE) names the old keys.',
    'Without --apply nothing is written: the result counts the rows per old key id, and the heads, that would be re-sealed. Nothing is written to a store with a row that fails verification.',
    'Killed at any point (SIGKILL included), every row and head is left sealed under one of the keys: run the same command again and it goes on where it stopped. Writers may keep writing, opened with a key file holding both keys (keys new --from), the new one active. When a last dry run reports nothing left, open the store with --new-key-file alone.',
    'With --allow-plaintext (and no --key-file), a plain store is sealed: its plaintext rows are sealed onto the ends of their sessions\' chains under the new key.',
  ].join('\n'),
  examples: [
    '<%= config.bin %> <%= command.id %> --store app.sqlite --key-file old.keys --new-key-file new.keys',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --key-file old.keys --new-key-file new.keys --apply',
    '<%= config.bin %> <%= command.id %> --store app.sqlite --new-key-file app.keys --allow-plaintext --apply',
  ],
  flags: {
    apply: applyFlag('Re-seal; without it the command is a dry run.'),
    'new-key-file': flag.string({ description: 'Key file whose active key everything is re-sealed under (its other keys read too).', required: true }),
    'batch-size': flag.integer({ description: 'Rows per transaction, 1 to 100000.', default: 200 }),
    'allow-plaintext': flag.boolean({ description: 'Also seal plaintext rows (migrating a plain store to sealed rows).' }),
  },
  async action({ flags, openStore, storeKeys }) {
    const batchSize = flags['batch-size'];
    if (!(batchSize >= 1 && batchSize <= 100_000)) throw new UsageError('--batch-size must be between 1 and 100000');
    if (flags['new-key-file'] === '') throw new UsageError('--new-key-file must not be empty');
    const oldKeys = await storeKeys();
    if (oldKeys === undefined && !flags['allow-plaintext']) {
      throw new UsageError('rekey needs the old keys (--key-file or SESSION_CHECKPOINT_KEY_FILE), or --allow-plaintext to seal a plain store');
    }
    const newKeys = await loadKeyFile(resolve(expandHome(flags['new-key-file'])));
    const keys = oldKeys === undefined ? newKeys : oldKeys.with(newKeys);
    const store = await openStore({ keys, ...(flags['allow-plaintext'] ? { allowPlaintext: true } : {}) });
    const report = await store.rekey({ apply: flags.apply, batchSize });
    return {
      dry_run: report.dryRun,
      active_key: report.activeKey,
      current: report.current,
      resealed: report.resealed,
      sealed_plaintext: report.sealedPlaintext,
      heads: report.heads,
      ...(report.dryRun ? {} : { head: await store.sealHead() }),
    };
  },
});
