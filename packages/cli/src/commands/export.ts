import { defineCommand } from '../command/define-command.js';
import { flag, namespaceFlag } from '../command/flags.js';
import { UsageError } from '../errors/usage-error.js';
import { expandHome } from '../input/expand-home.js';
import { stderrProgress } from '../progress/stderr-progress.js';

/**
 * `export`: writes a bundle file; `{ schema, output, checkpoints }`. The output is checked before
 * the store is opened, so a refused export touches nothing.
 */
export default defineCommand({
  id: 'export',
  summary: 'Export checkpoints to a local JSON bundle file.',
  description: [
    'Export verified checkpoints, ordered by id, to a bundle file (ellmos.session-checkpoint-export.v1, owner-only, written atomically).',
    'Missing parent directories are created. Only a regular file is replaced: an existing directory, device, FIFO or socket, a symlink (the last component), and the store with its -wal/-shm/-journal files are refused before the store is opened.',
    'One bad row fails the export and no file is written.',
    'With --key-file (a sealed store), the bundle keeps the envelopes as stored, with the heads of the exported sessions: it can only be read, and is only imported, with the keys. --plaintext writes the decrypted payloads instead (a plain bundle: the file then holds the plaintext).',
  ].join('\n'),
  examples: ['<%= config.bin %> <%= command.id %> --store app.sqlite --output backup/all.json', '<%= config.bin %> <%= command.id %> --store app.sqlite --namespace agent --output agent.json'],
  flags: {
    namespace: namespaceFlag('Only this namespace. Default is every namespace.'),
    output: flag.string({ description: 'Bundle file to write (a regular file, replaced if it exists; never a symlink).', required: true }),
    plaintext: flag.boolean({ description: 'A sealed store (--key-file): write decrypted payloads, a plain bundle. Default is a sealed bundle (envelopes and heads).' }),
  },
  async action({ flags, storeSelection, storeKeys, openStore }) {
    if (flags.plaintext && (await storeKeys()) === undefined) throw new UsageError('--plaintext needs the store\'s keys (--key-file or SESSION_CHECKPOINT_KEY_FILE)');
    const { writeBundleFile } = await import('@session-checkpoint/bundle');
    const { prepareExportTarget } = await import('@session-checkpoint/bundle/internal');
    const selection = storeSelection();
    const storePath = selection.kind === 'sqlite' ? { storePath: selection.path } : {};
    const target = await prepareExportTarget(expandHome(flags.output), storePath);
    let result;
    try {
      const store = await openStore();
      const onProgress = stderrProgress();
      result = await writeBundleFile(store, target.path, {
        ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
        ...storePath,
        ...(flags.plaintext ? { plaintext: true } : {}),
        ...(onProgress === undefined ? {} : { onProgress }),
      });
    } catch (error) {
      await target.undo();
      throw error;
    }
    return { schema: result.schema, output: result.output, checkpoints: result.checkpoints };
  },
});
